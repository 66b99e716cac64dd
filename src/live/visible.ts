/**
 * Text from the service as the terminal may show it: control characters (ESC sequences, BEL, OSC title changes,
 * carriage returns, C1 controls) are written out as `\xHH` instead of reaching the terminal raw (issue 13).
 * Line breaks and tabs stay where a caller keeps lines; `oneLine` escapes them too.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f-\u009f]/g;

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

export function visible(text: string): string {
  return text.replace(CONTROL, hex);
}

/** As `visible`, line breaks and tabs escaped too (header fields, tags). */
export function visibleLine(text: string): string {
  return text.replace(CONTROL_ONE_LINE, hex);
}
