/**
 * Where a document is wrong, told without quoting it: V8's JSON.parse messages carry a snippet of the
 * input, and the input may be a config file with an API key or a credential value.
 */

/** `line L, column C` (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/** The message for text JSON.parse rejected: the position of the first error and what was expected, no content. */
export function jsonSyntaxError(text: string): string {
  const { offset, expected } = firstJsonError(text);
  return `${offset >= text.length ? 'unexpected end of input' : `expected ${expected}`} at ${lineColumn(text, offset)}`;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const LITERAL = /true|false|null/y;
const DIGITS = /[0-9]+/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** A small JSON grammar walk (iterative, so depth cannot overflow) that finds where JSON.parse stopped. */
export function firstJsonError(text: string): { offset: number; expected: string } {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  const match = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };
  const fail = (expected: string) => ({ offset: i, expected });
  /** A string from its opening quote; undefined when it is well formed, else what was expected where it broke. */
  const string = (): string | undefined => {
    i++;
    for (;;) {
      if (i >= text.length) return "a closing '\"'";
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return undefined;
      }
      if (code < 0x20) return 'no raw control character (line break, tab) inside a string';
      if (code === 0x5c) {
        i++;
        if (text[i] === 'u') {
          i++;
          if (!match(HEX4)) return 'four hex digits after \\u';
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) return 'a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)';
      }
      i++;
    }
  };
  const number = (): string | undefined => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!match(DIGITS)) return 'a digit';
    if (text[i] === '.') {
      i++;
      if (!match(DIGITS)) return 'a digit after the decimal point';
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!match(DIGITS)) return 'a digit in the exponent';
    }
    return undefined;
  };
  /** `"name":` before a member's value. */
  const memberName = (): string | undefined => {
    if (text[i] !== '"') return 'a property name in double quotes';
    const bad = string();
    if (bad) return bad;
    skip();
    if (text[i] !== ':') return "':'";
    i++;
    return undefined;
  };
  // Each frame is the container being read: '{' or '['.
  const stack: string[] = [];
  for (;;) {
    // A value.
    skip();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      skip();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
      } else if (c === '{') {
        const bad = memberName();
        if (bad) return fail(bad);
        continue;
      } else continue;
    } else if (c === '"') {
      const bad = string();
      if (bad) return fail(bad);
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const bad = number();
      if (bad) return fail(bad);
    } else if (!match(LITERAL)) {
      return fail('a value');
    }
    // After a value: close containers, or a comma and the next member.
    for (;;) {
      skip();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < text.length ? fail('the end of input') : { offset: i, expected: 'nothing' };
      const close = top === '{' ? '}' : ']';
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return fail(`',' or '${close}'`);
      i++;
      if (top === '{') {
        skip();
        const bad = memberName();
        if (bad) return fail(bad);
      }
      break;
    }
  }
}
