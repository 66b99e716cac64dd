/** The candidates closest to a mistyped word, for a "did you mean …?" (commander's rule: at most 3 edits, 40 % alike). */
export function similar(word: string, candidates: readonly string[]): string[] {
  let best = 3;
  let found: string[] = [];
  for (const c of new Set(candidates)) {
    const d = editDistance(word, c);
    if ((Math.max(word.length, c.length) - d) / Math.max(word.length, c.length) <= 0.4 || d > best) continue;
    if (d < best) [best, found] = [d, []];
    found.push(c);
  }
  return found;
}

/** ` (did you mean running?)`, or '' when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const close = similar(word, candidates);
  return close.length ? ` (did you mean ${close.join(' or ')}?)` : '';
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}
