/** A unified diff of two texts by lines (longest common subsequence), as diff -u prints it; pure. */

/** Beyond this many lines on a side the LCS table would be large: the texts are shown as replaced whole. */
const MAX_LINES = 4000;
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

function ops(a: string[], b: string[]): Op[] {
  if (a.length > MAX_LINES || b.length > MAX_LINES)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the LCS length of a[i..] and b[j..], one row at a time from the end.
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ kind: '-', line: a[i++] });
    else out.push({ kind: '+', line: b[j++] });
  }
  while (i < n) out.push({ kind: '-', line: a[i++] });
  while (j < m) out.push({ kind: '+', line: b[j++] });
  return out;
}

const split = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));

/** The unified diff of `a` and `b` under the names given; '' when they are the same. */
export function unifiedDiff(a: string, b: string, nameA: string, nameB: string): string {
  const all = ops(split(a), split(b));
  if (all.every((o) => o.kind === ' ')) return '';
  let out = `--- ${nameA}\n+++ ${nameB}\n`;
  // Hunks: changed lines with CONTEXT lines around them, joined where their contexts touch.
  const changed = all.map((o, k) => (o.kind === ' ' ? -1 : k)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - CONTEXT);
    let end = Math.min(all.length, changed[k] + CONTEXT + 1);
    while (k + 1 < changed.length && changed[k + 1] - CONTEXT <= end) end = Math.min(all.length, changed[++k] + CONTEXT + 1);
    k++;
    const before = all.slice(0, start);
    const lineA = before.filter((o) => o.kind !== '+').length;
    const lineB = before.filter((o) => o.kind !== '-').length;
    const hunk = all.slice(start, end);
    const countA = hunk.filter((o) => o.kind !== '+').length;
    const countB = hunk.filter((o) => o.kind !== '-').length;
    const at = (line: number, count: number) => `${count === 0 ? line : line + 1}${count === 1 ? '' : `,${count}`}`;
    out += `@@ -${at(lineA, countA)} +${at(lineB, countB)} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.line}\n`;
  }
  return out;
}
