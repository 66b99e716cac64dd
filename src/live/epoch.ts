/**
 * Control epochs are digit strings of up to 19 digits without leading zeros: compared by length,
 * then digit by digit, never as floating-point numbers. Never throws on a malformed value.
 */
export function compareEpochs(a: string, b: string): number {
  if (a.length !== b.length) return a.length > b.length ? 1 : -1;
  return a === b ? 0 : a > b ? 1 : -1;
}
