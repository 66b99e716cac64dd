import { UsageError } from '../errors';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration flag: `90s`, `30m`, `2h`, `7d`, compounds such as `1h30m`, or plain seconds. Anything else is exit 2
 * naming the flag, before any request.
 */
export function parseDuration(v: string, flag: string): number {
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return positive(Number(text) * 1000, flag);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(text)) throw new UsageError(`${flag} takes a duration such as 90s, 30m, 2h or 7d (got "${v}")`);
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(n) * UNIT_MS[unit];
  return positive(ms, flag);
}

function positive(ms: number, flag: string): number {
  if (!(ms > 0)) throw new UsageError(`${flag} must be greater than zero`);
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
