/**
 * Text measured as a terminal shows it: CJK and most emoji take two columns, combining marks and zero-width
 * characters none. Columns cut or padded by code points shift on such text and overflow the line.
 * string-width is the measure Ink itself lays out with (bundled with it).
 */
import stringWidth from 'string-width';

export const displayWidth = (s: string): number => stringWidth(s);

let segmenter: Intl.Segmenter | undefined;
/** Made on first use: the first Segmenter loads ICU's break-iterator data (~15 ms), which ASCII text never needs. */
const graphemes = (s: string): Intl.Segments => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(s);

/** Text cut to at most `width` columns, ending in `…` when cut; never splits a character a terminal draws as one. */
export function cutToWidth(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemes(s)) {
    const w = displayWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/**
 * Text without the characters that draw nothing on their own (zero-width space, word joiner, BOM): Ink's screen
 * gives each a cell of its own, which the terminal then does not draw, shifting what follows to the left.
 */
export function withoutZeroWidth(s: string): string {
  if (!/[\u200b-\u200d\u2060\ufeff]/.test(s)) return s;
  let out = '';
  for (const { segment } of graphemes(s)) if (displayWidth(segment) > 0) out += segment;
  return out;
}

/** Text padded with spaces to `width` columns (as is when already wider). */
export const padToWidth = (s: string, width: number): string => s + ' '.repeat(Math.max(0, width - displayWidth(s)));
