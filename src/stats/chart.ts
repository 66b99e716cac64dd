/** Plain-text pictures for a terminal: they read without colour, and nothing here is printed off a terminal. */

const BLOCKS = '▁▂▃▄▅▆▇█';
const DAY_MS = 86_400_000;

/** A bar of `value` out of `max`, at most `width` cells, in eighths. */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || value <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  const partial = eighths % 8;
  return '█'.repeat(Math.floor(eighths / 8)) + (partial ? '▏▎▍▌▋▊▉'[partial - 1] : '');
}

/** One cell per value, scaled to the largest; zero is a space. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v <= 0 || max <= 0 ? ' ' : BLOCKS[Math.min(7, Math.floor((v / max) * 7.999))])).join('');
}

/** Every UTC day from the first to the last key of `perDay` (at most `most`, the latest), zeros filled in. */
export function dailySeries(perDay: Record<string, number>, most: number): { from: string; to: string; values: number[] } | undefined {
  const days = Object.keys(perDay).sort();
  if (days.length === 0) return undefined;
  const last = Date.parse(days[days.length - 1]);
  const first = Math.max(Date.parse(days[0]), last - (most - 1) * DAY_MS);
  const values: number[] = [];
  for (let d = first; d <= last; d += DAY_MS) values.push(perDay[new Date(d).toISOString().slice(0, 10)] ?? 0);
  return { from: new Date(first).toISOString().slice(0, 10), to: days[days.length - 1], values };
}
