/**
 * The regular expressions a policy may hold: refused before use when they can run away (docs/decisions/approve.md).
 * JavaScript's engine backtracks, so a pattern like `(a+)+$` takes exponential time on a long input, and a rule
 * evaluated on an agent's tool input must never hang the approver. The rule, checked on the pattern's text:
 * - no backreference (`\1`, `\k<name>`): they need backtracking by definition;
 * - no quantified group that holds a quantifier or an alternation (`(a+)+`, `(a|ab)*`, `(\w+\s?)*`): the nested
 *   ambiguity is what makes backtracking exponential;
 * - at most {@link MAX_UNBOUNDED} unbounded quantifiers (`*`, `+`, `{n,}`): each more multiplies the worst case by
 *   the input's length;
 * and a pattern is only ever run on at most {@link MAX_REGEX_INPUT} characters (a longer value leaves the call
 * undecided: a human answers it).
 */

export const MAX_UNBOUNDED = 2;
export const MAX_REGEX_INPUT = 8192;
/** A pattern longer than this is not a rule a person reviews. */
export const MAX_PATTERN = 1000;

/** Why a pattern is refused, or undefined when it is safe to run (and compiles). */
export function regexRisk(source: string): string | undefined {
  if (source.length > MAX_PATTERN) return `a regular expression of at most ${MAX_PATTERN} characters`;
  try {
    new RegExp(source);
  } catch (e) {
    return `not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  /** The open groups: whether each holds a quantifier or an alternation so far. */
  const groups: Array<{ quantified: boolean; alternation: boolean }> = [];
  /** What the last atom was: a group just closed (with what it held), or anything else. */
  let last: { quantified: boolean; alternation: boolean } | undefined;
  let unbounded = 0;
  const markQuantified = () => {
    for (const g of groups) g.quantified = true;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n !== undefined && /[1-9]/.test(n)) return 'a backreference (\\1 …) needs backtracking; match without it';
      if (n === 'k' && source[i + 2] === '<') return 'a named backreference (\\k<…>) needs backtracking; match without it';
      i++;
      last = undefined;
      continue;
    }
    if (c === '[') {
      // A character class is one atom: skip to its end (escapes inside it included).
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      last = undefined;
      continue;
    }
    if (c === '(') {
      groups.push({ quantified: false, alternation: false });
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the group's prefix is no quantifier.
      if (source[i + 1] === '?') {
        i++;
        if (source[i + 1] === '<' && source[i + 2] !== '=' && source[i + 2] !== '!') while (i < source.length && source[i] !== '>') i++;
        else i++;
      }
      last = undefined;
      continue;
    }
    if (c === ')') {
      last = groups.pop() ?? { quantified: false, alternation: false };
      continue;
    }
    if (c === '|') {
      const g = groups.at(-1);
      if (g) g.alternation = true;
      last = undefined;
      continue;
    }
    const q = quantifierAt(source, i);
    if (q) {
      if (last && q.repeats && (last.quantified || last.alternation))
        return last.quantified
          ? 'a repeated group holds a quantifier (as in (a+)+): it can run away; repeat a character class instead'
          : 'a repeated group holds an alternation (as in (a|ab)*): it can run away; use a character class or drop the repetition';
      if (q.unbounded && ++unbounded > MAX_UNBOUNDED)
        return `more than ${MAX_UNBOUNDED} unbounded quantifiers (*, +, {n,}): each multiplies the worst case; split the rule or anchor it`;
      if (q.repeats) markQuantified();
      i = q.end;
      // A lazy `?` after a quantifier belongs to it.
      if (source[i + 1] === '?') i++;
      last = undefined;
      continue;
    }
    last = undefined;
  }
  return undefined;
}

/** The quantifier starting at `i`, if one does: whether it repeats (more than once) and has no upper bound. */
function quantifierAt(s: string, i: number): { end: number; repeats: boolean; unbounded: boolean } | undefined {
  const c = s[i];
  if (c === '*' || c === '+') return { end: i, repeats: true, unbounded: true };
  if (c === '?') return { end: i, repeats: false, unbounded: false };
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i));
  if (!m) return undefined;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { end: i + m[0].length - 1, repeats: max > 1, unbounded: max === Infinity };
}
