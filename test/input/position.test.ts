import { describe, expect, it } from 'vitest';
import { firstJsonError, jsonSyntaxError, lineColumn } from '../../src/input/position';

/** V8 names the position for some errors ("… in JSON at position N"): where it does, ours must agree. */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
  } catch (e) {
    const m = /at position (\d+)/.exec((e as Error).message);
    return m ? Number(m[1]) : undefined;
  }
  throw new Error(`${text} is valid JSON`);
}

const BROKEN = [
  '{"a": 1,}',
  '{"a" 1}',
  '{a: 1}',
  '[1, 2',
  '[1 2]',
  '{"a": tru}',
  '{"a": "x\ny"}',
  '{"a": 01}',
  '{} x',
  '',
  '  ',
  '{"a": "\\q"}',
  '[-]',
  '{"a": 1, "b"}',
  '[[[[[1]]]]',
  '"abc',
];

describe('where JSON.parse stopped, told without the text', () => {
  for (const text of BROKEN) {
    it(`finds the error in ${JSON.stringify(text)} where V8 does`, () => {
      const { offset } = firstJsonError(text);
      const v8 = v8Position(text);
      if (v8 !== undefined) expect(offset).toBe(v8);
      expect(offset).toBeLessThanOrEqual(text.length);
    });
  }

  it('a secret-looking bare word is located, not quoted', () => {
    const text = '{\n  "api_key": sk_live_abc\n}';
    expect(jsonSyntaxError(text)).toBe('expected a value at line 2, column 14');
  });

  it('valid JSON has no error before its end', () => {
    const text = '{"a": [1, -2.5e3, true, null, "x\\u0041"], "b": {}}';
    expect(() => JSON.parse(text)).not.toThrow();
    expect(firstJsonError(text)).toEqual({ offset: text.length, expected: 'nothing' });
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toBe('line 1, column 1');
    expect(lineColumn('ab\ncd', 4)).toBe('line 2, column 2');
  });

  it('a document nested 100 000 deep is walked without overflowing the stack', () => {
    expect(firstJsonError('['.repeat(100_000)).offset).toBe(100_000);
  });
});
