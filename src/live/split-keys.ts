/**
 * One read from the terminal may carry several keys (a fast typist over ssh: `tt`, `hi⏎`, `/idle⏎`). These split it
 * into single keys, in order, so each is handled as if it came alone. The live view and the fleet board share them.
 */
import type { KeyPress } from './keys';

/** Control characters named as Ink names them when they arrive alone. */
export const NAMED_KEYS: Readonly<Record<string, [string, KeyPress]>> = {
  '\r': ['', { return: true }],
  '\n': ['', { return: true }],
  '\t': ['', { tab: true }],
  '\u007f': ['', { backspace: true }],
  '\b': ['', { backspace: true }],
  '\u0003': ['c', { ctrl: true }],
};

/**
 * The keys of one read: a lone key (or a ctrl/meta chord) as Ink named it, else each character, the control
 * characters in `named` named as Ink names them and other control characters dropped.
 */
export function splitKeys<P extends KeyPress>(
  input: string,
  k: P,
  named: Readonly<Record<string, [string, KeyPress]>> = NAMED_KEYS,
): Array<[string, P | KeyPress]> {
  if (input.length <= 1 || k.ctrl || k.meta) return [[input, k]];
  const keys: Array<[string, P | KeyPress]> = [];
  for (const ch of input) {
    const key = named[ch];
    if (key) keys.push(key);
    else if (ch >= ' ') keys.push([ch, {}]);
  }
  return keys;
}
