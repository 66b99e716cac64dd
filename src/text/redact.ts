/**
 * The one redaction of what svc prints: error lines, debug logs and the messages of the API's errors pass through
 * `redact`, which masks URL passwords, `Bearer …`/`Basic …` credentials and every secret value this run has
 * seen (API and environment keys, session tokens, credential values sent), whatever text carries them.
 */
const known = new Set<string>();
let longestFirst: string[] | undefined;

/** Masked in place of a secret. */
export const MASK = '***';

// Assumption: values under 4 characters are not masked: masking "ab" everywhere would garble every line.
const MIN_SECRET_LENGTH = 4;

/** Remembers a secret for the rest of the run, with the forms it takes inside JSON and URLs. */
export function addSecret(value: unknown): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || known.has(value)) return;
  for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) known.add(form);
  longestFirst = undefined;
}

const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]*@/gi;
/** A quoted Authorization header's credential: `Authorization: Bearer X`, `"authorization":"Basic X"`. */
const AUTH_HEADER = /(authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic)\s+)?)[^\s"',;]+/gi;
/** A bearer token anywhere: token-like (8+ characters with a digit or punctuation), so "Bearer token required" stays prose. */
const BEARER = /\b(Bearer\s+)(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/g;

/** `scheme://user:PASSWORD@host` with the password masked (a base URL shown by `auth status`). */
export function maskUrlPassword(text: string): string {
  return text.replace(URL_PASSWORD, `$1${MASK}@`);
}

export function redact(text: string): string {
  let out = maskUrlPassword(text).replace(AUTH_HEADER, `$1${MASK}`).replace(BEARER, `$1${MASK}`);
  longestFirst ??= [...known].sort((a, b) => b.length - a.length);
  for (const s of longestFirst) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/** Members of a request body whose values are secrets: credential values, a work row's bundle passed on. */
const SECRET_MEMBERS = new Set(['secret', 'sessions_token', 'value', 'api_key', 'password']);
/** Masked in the debug log of bodies as well (issued keys, tokens), without being remembered as secrets. */
const MASKED_MEMBERS = new Set([...SECRET_MEMBERS, 'key', 'token', 'authorization']);

/** A copy of a JSON body with every secret member masked (for the debug log of full bodies). */
export function maskMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskMembers);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = MASKED_MEMBERS.has(k.toLowerCase()) && typeof v === 'string' ? MASK : maskMembers(v);
  return out;
}

/** Remembers the secret members of a request body. */
export function addSecretMembers(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(addSecretMembers);
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_MEMBERS.has(k)) addSecret(v);
    else addSecretMembers(v);
  }
}
