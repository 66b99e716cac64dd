import { addSecret } from '../text/redact';
import { UsageError } from '../runtime/errors';
import { isObject } from '../wire/is-object';
import { readInputFile } from '../input/read';
import { LIMITS } from '../wire/limits';

/** Where a secret comes from: `{env: NAME}` or `{file: PATH}` (relative to the document's folder). */
export type ValueFrom = { env: string } | { file: string };

/** Checks a `value_from` before any request; returns it typed. */
export function checkValueFrom(v: unknown, where: string): ValueFrom {
  const ok = isObject(v) && Object.keys(v).length === 1 && (typeof v.env === 'string' || typeof v.file === 'string');
  if (!ok) throw new UsageError(`${where}: value_from must be {env: NAME} or {file: PATH}`);
  return v as ValueFrom;
}

/** `env DEPLOY_TOKEN` / `file token.txt`: how the plan names a secret without its value. */
export const sourceOf = (v: ValueFrom): string => ('env' in v ? `env ${v.env}` : `file ${v.file}`);

/** Where and how a secret is read: the environment, the document's folder, the Ctrl-C signal. */
export interface SecretSource {
  env: Record<string, string | undefined>;
  dir: string;
  signal?: AbortSignal;
}

/**
 * The secret's value, read only when it is to be sent; the value never appears in a message. It is registered
 * for redaction at once, so no debug line, error or output shows it, wherever the document sends it. A file is
 * read as documents are: bounded by the body limit and interruptible (a FIFO, a device, /dev/zero).
 */
export async function readSecret(v: ValueFrom, where: string, src: SecretSource): Promise<string> {
  let value: string;
  if ('env' in v) {
    const held = src.env[v.env];
    if (held === undefined || held === '') throw new UsageError(`${where}: value_from env ${v.env} is not set`);
    value = held;
  } else {
    let bytes: Buffer;
    try {
      bytes = await readInputFile(v.file, src.dir, { what: `value_from file ${v.file}`, limit: LIMITS.jsonBody, signal: src.signal });
    } catch (e) {
      throw e instanceof UsageError ? new UsageError(`${where}: value_from: ${e.message}`) : e;
    }
    // A trailing newline is the editor's, not the secret's.
    value = bytes.toString('utf8').replace(/\r?\n$/, '');
  }
  addSecret(value);
  return value;
}

/** A map whose values may be `{value_from}` (MCP headers): true when any is. */
export const hasValueFrom = (m: unknown): boolean => isObject(m) && Object.values(m).some((v) => isObject(v) && 'value_from' in v);

/** The map with every `{value_from}` value read. */
export async function readSecretMap(m: Record<string, unknown>, where: string, src: SecretSource): Promise<Record<string, unknown>> {
  // The member named as `headers["Authorization"]`: `Authorization: …` would read as a quoted header, which error lines redact.
  const at = (k: string) => `${where}[${JSON.stringify(k)}]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) out[k] = isObject(v) && 'value_from' in v ? await readSecret(checkValueFrom(v.value_from, at(k)), at(k), src) : v;
  return out;
}
