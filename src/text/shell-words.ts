import { UsageError } from '../runtime/errors';

/*
 * Shell words, both ways: a value pasted into a command line svc suggests is quoted when it is not a plain word (an ID
 * the service gave may hold `;` or `$(…)`), and a command the user configured (SVC_PAGER) is split as sh would split
 * it, without running a shell.
 */

/** Characters that never need quoting in sh. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** The value as one sh word: as it is when it is plain, else single-quoted (a `'` inside as `'\''`). */
export function shellWord(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A line split into words as sh splits it, without expanding anything: '…' is literal, "…" and a backslash escape.
 * An unclosed quote is exit 2, so an alias that could not be read is never stored.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`unclosed ' in "${line}"`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; i < line.length && line[i] !== '"'; i++) word += line[i] === '\\' && '"\\$`'.includes(line[i + 1] ?? '') ? line[++i] : line[i];
      if (i >= line.length) throw new UsageError(`unclosed " in "${line}"`);
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
