/**
 * C0 controls but tab and newline, DEL and the C1 controls (U+009B opens a CSI sequence on some terminals):
 * what, printed raw, lets text from the service or an argument move the cursor, retitle the window or ring.
 * Bidirectional controls too (U+202E turns the rest of the line around, U+2066–U+2069 isolate, the marks): raw,
 * they make a title read as something else and reorder the cells after it.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text with every control character shown as a visible `\xHH`, so a terminal prints it instead of obeying it. */
export function escapeControls(s: string): string {
  return s.replace(CONTROLS, hex);
}

/** DEL and the C1 controls: what JSON.stringify and the yaml package leave raw. */
const RAW_IN_JSON = /[\u007f-\u009f]/;
const RAW_IN_JSON_ALL = /[\u007f-\u009f]/g;

/** Whether text holds a control character that JSON and YAML writers leave raw. */
export function hasRawInJson(s: string): boolean {
  return RAW_IN_JSON.test(s);
}

/** JSON text with DEL and the C1 controls as `\u` escapes (JSON.stringify leaves them raw): the same value, inert on a terminal. */
export function escapeJsonControls(json: string): string {
  return json.replace(RAW_IN_JSON_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** YAML text whose scalars holding DEL or a C1 control are double-quoted: each as `\xHH`, the same character there. */
export function escapeYamlControls(yaml: string): string {
  return yaml.replace(RAW_IN_JSON_ALL, hex);
}

const CONTROLS_AND_BREAKS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** As `escapeControls`, line breaks and tabs escaped too: for text that must stay on its line (headers, tags). */
export function escapeLineControls(s: string): string {
  return s.replace(CONTROLS_AND_BREAKS, hex);
}

/** `\xHH`, or `\uHHHH` beyond U+00FF (the bidirectional controls). */
function hex(c: string): string {
  const code = c.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
}
