/** The line of advice under an error on a terminal: the spec's recovery, how to list IDs after a 404, where a base URL came from. */
import { ApiError, NetworkError } from '../api/errors';
import { RESOURCE_LIST, resourceOf, type ResourceEntry } from '../api/manifest';
import { SessionEndError } from '../runtime/errors';
import { maskUrlPassword } from '../text/redact';
import { ERROR_RECOVERY } from '../wire/errors';

/** What the hint may name beside the error: the command group and the settings in force (where the base URL came from). */
export interface HintContext {
  group?: string;
  settings?: { baseUrl: { value: string; source: string }; profile: { value: string } };
}

/** The line of advice shown under an error on a terminal. */
export function recoveryHint(err: unknown, about: HintContext = {}): string | undefined {
  const listHint = err instanceof ApiError && err.type === 'resource_not_found_error' && about.group ? notFoundHint(about.group) : undefined;
  if (listHint) return `${ERROR_RECOVERY.resource_not_found_error.replace(/\.$/, '')}; ${listHint}`;
  if (err instanceof ApiError && err.type) return Object.hasOwn(ERROR_RECOVERY, err.type) ? ERROR_RECOVERY[err.type] : undefined;
  if (err instanceof SessionEndError) return err.hint;
  if (err instanceof NetworkError && err.baseUrl && err.code && UNREACHABLE.has(err.code)) {
    const { baseUrl, profile } = about.settings ?? {};
    if (baseUrl?.source === 'profile' && baseUrl.value === err.baseUrl) {
      const flag = profile && profile.value !== 'default' ? ` --profile ${profile.value}` : '';
      return `base_url ${maskUrlPassword(err.baseUrl)} comes from profile "${profile?.value}": change it with \`svc config set base_url URL${flag}\`, or pass --base-url URL`;
    }
    if (err.code === 'ECONNREFUSED' && isLoopback(err.baseUrl)) return 'is the emulator running (`svc emulator`), or is SVC_BASE_URL set?';
  }
  return undefined;
}

/** Connection failures that say the base URL leads nowhere (not a timeout or a cut mid-answer). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Listed under a session, not a resource of the manifest: its hint names the session argument. */
const THREADS = { group: 'threads', noun: 'thread', named: false, args: ' SESSION' };

/**
 * What a 404 in `group` adds: how to list its IDs, and for a resource with names that a name works too (docs/behaviour.md).
 * Every resource of the manifest (`rows`, a copy in tests) has one.
 */
export function notFoundHint(group: string, rows: readonly ResourceEntry[] = RESOURCE_LIST): string | undefined {
  const r = group === THREADS.group ? THREADS : resourceOf(group, rows);
  if (!r) return undefined;
  const args = 'args' in r ? r.args : '';
  return r.named
    ? `\`svc ${group} list${args}\` shows each ${r.noun}'s ID with its name, and a name works in place of an ID`
    : `\`svc ${group} list${args}\` shows the ${r.noun} IDs`;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}
