import { NoCredentialError, UsageError } from '../runtime/errors';
import type { ProfileKey } from './shape';
import type { Setting } from './settings';
import { maskUrlPassword } from '../text/redact';

/** Where a setting came from, for messages: the flag, the environment variable, or the profile in its file. */
export interface Origin {
  flag?: string;
  env: string;
  key: ProfileKey;
  profile: string;
  file: string;
}

export function describeOrigin(s: Setting<unknown>, o: Origin): string {
  if (s.source === 'flag' && o.flag) return o.flag;
  if (s.source === 'env') return o.env;
  if (s.source === 'profile') return `${o.key} of profile "${o.profile}" in ${o.file}`;
  return `the default ${o.key}`;
}

/** A URL for a message: the password masked, control characters escaped. */
const shownUrl = (v: string): string => JSON.stringify(maskUrlPassword(v));

/**
 * An absolute http(s) URL with a host and a valid port; checked before any request, since the HTTP client would
 * otherwise fail each attempt as a network error (retried, exit 10).
 */
export function checkBaseUrl(value: string, where: string): void {
  const shown = `${where} ${shownUrl(value)}`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new UsageError(`${shown} has no scheme: use an http(s) URL such as http://${value.replace(/^\/*/, '')}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${shown} is not a valid URL (check the host and the port, 1-65535)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${shown} is not an http(s) URL`);
  if (!url.hostname) throw new UsageError(`${shown} has no host`);
}

/** Characters an HTTP header value may carry and a token is made of: visible ASCII. */
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * A credential that cannot go in an `Authorization` header (a pasted `…`, a line break) is malformed:
 * exit 4 at once, saying where it came from and never what it holds.
 */
export function checkCredential(value: string, where: string, what: string): void {
  if (TOKEN.test(value)) return;
  const kind = /[^\x00-\x7f]/.test(value)
    ? 'a non-ASCII character (a pasted "…"?)'
    : /[\r\n]/.test(value)
      ? 'a line break'
      : 'white space or a control character';
  throw new NoCredentialError(`the ${what} from ${where} is malformed: it holds ${kind}, which cannot be sent in an HTTP header`);
}

/** The setting after `check(value, where it came from)`. */
export function checked<S extends Setting<string> | undefined>(s: S, o: Origin, check: (value: string, where: string) => void): S {
  if (s) check(s.value, describeOrigin(s, o));
  return s;
}

/** `SVC_API_VERSION` goes in a header too. */
export function checkApiVersion(v: string): string {
  if (!TOKEN.test(v)) throw new UsageError(`SVC_API_VERSION ${JSON.stringify(v)} holds a character that cannot be sent in an HTTP header`);
  return v;
}
