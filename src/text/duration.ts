import { UsageError } from '../runtime/errors';

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };

/** The longest a timer can wait: Node fires any timer past 2^31−1 ms (24.8 days) at once. Stated in whole days. */
export const MAX_TIMER_MS = 24 * DAY_MS;
/** The furthest back an age selector reaches (`--older-than`, `--idle-for`): a time the service can be sent. */
export const MAX_AGE_MS = 36_500 * DAY_MS;

/**
 * A duration flag: `90s`, `30m`, `2h`, `7d`, compounds such as `1h30m`, or plain seconds. Anything else, zero, or
 * more than `maxMs` (a timer's limit unless the flag is an age) is exit 2 naming the flag, before any request.
 */
export function parseDuration(v: string, flag: string, maxMs = MAX_TIMER_MS): number {
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return bounded(Number(text) * 1000, flag, maxMs);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(text)) throw new UsageError(`${flag} takes a duration such as 90s, 30m, 2h or 7d (got "${v}")`);
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(n) * UNIT_MS[unit];
  return bounded(ms, flag, maxMs);
}

/** Every duration svc takes passes here: more than zero, at most `maxMs` (exit 2 stating the bound). */
export function bounded(ms: number, flag: string, maxMs = MAX_TIMER_MS): number {
  if (!(ms > 0)) throw new UsageError(`${flag} must be greater than zero`);
  if (!(ms <= maxMs)) throw new UsageError(`${flag} must be at most ${maxMs / DAY_MS}d`);
  return ms;
}

/** A short age as kubectl prints it: `45s`, `12m`, `5h`, `3d`. */
export function shortAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
