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
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

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
        if (!match(STRING)) return fail('a property name in double quotes');
        skip();
        if (text[i] !== ':') return fail("':'");
        i++;
        continue;
      } else continue;
    } else if (!(c === '"' ? match(STRING) : c === 't' || c === 'f' || c === 'n' ? match(LITERAL) : match(NUMBER))) {
      return fail(c === '"' ? 'a valid string (closed, with valid escapes and no raw control characters)' : 'a value');
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
        if (!match(STRING)) return fail('a property name in double quotes');
        skip();
        if (text[i] !== ':') return fail("':'");
        i++;
      }
      break;
    }
  }
}
