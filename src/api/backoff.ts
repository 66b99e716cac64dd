/** Exponential back-off with jitter: between half and all of min(cap, base·2^(attempt-1)), so clients do not retry in step. */
export function backoffMs(attempt: number, random: () => number, baseMs = 250, capMs = 8000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
