/**
 * A time as a table shows it: how long ago (`3m ago`), or `in 2m` ahead of this clock. Anything that is not a time
 * is shown as it came; json and yaml never come here and keep the service's value.
 */
export function age(value: unknown, now: number = Date.now()): unknown {
  if (typeof value !== 'string' || value === '') return value;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  const ms = now - at;
  const span = duration(Math.abs(ms));
  return ms >= 0 ? `${span} ago` : `in ${span}`;
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
