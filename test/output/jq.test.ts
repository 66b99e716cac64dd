import { describe, expect, it } from 'vitest';
import { compileJq } from '../../src/output/jq';
import { UsageError } from '../../src/runtime/errors';

const texts = (values: unknown[]) => values.map((v) => JSON.stringify(v));

describe('--jq (jq compiled to WebAssembly)', () => {
  it('runs 400 separate evaluations in one process (jq-wasm aborted after ~314)', async () => {
    const jq = await compileJq('.id');
    let out = '';
    for (let i = 0; i < 400; i++) out += jq.run(texts([{ id: `agt_${i}` }])).text;
    expect(out.split('\n').filter(Boolean)).toHaveLength(400);
    expect(out.endsWith('agt_399\n')).toBe(true);
  });

  it('prints strings raw and every other result as compact JSON, one a line, as gh --jq does', async () => {
    const jq = await compileJq('.name, .n, .tags, "", "two\\nlines"');
    expect(jq.run(texts([{ name: 'a\tb "q"', n: 1.5, tags: ['x'] }])).text).toBe('a\tb "q"\n1.5\n["x"]\n\ntwo\nlines\n');
    expect((await compileJq('empty')).run(texts([1])).text).toBe('');
  });

  it('filters each value of a batch on its own', async () => {
    const jq = await compileJq('[., length]');
    expect(jq.run(texts([[1], [1, 2], []])).text).toBe('[[1],1]\n[[1,2],2]\n[[],0]\n');
  });

  it("a syntax error or an unknown function fails to compile with jq's own message", async () => {
    await expect(compileJq('.[')).rejects.toThrow(UsageError);
    await expect(compileJq('.[')).rejects.toThrow(/^--jq: syntax error, unexpected end of file \(line 1\)$/);
    await expect(compileJq('nosuchfn(1)')).rejects.toThrow(/^--jq: nosuchfn\/1 is not defined/);
    // A trailing comment does not swallow the rest of the program.
    expect((await compileJq('.a # the a')).run(texts([{ a: 1 }])).text).toBe('1\n');
  });

  it("an error in one value keeps the results before it and reports jq's message", async () => {
    const jq = await compileJq('.a, (if .a == 2 then error("boom at \\(.a)") else .a * 10 end)');
    const r = jq.run(texts([{ a: 1 }, { a: 2 }, { a: 3 }]));
    expect(r.text).toBe('1\n10\n2\n');
    expect(r.error).toBeInstanceOf(UsageError);
    expect(r.error?.message).toBe('--jq: boom at 2');
    expect((await compileJq('.a.b')).run(texts([{ a: 'text' }])).error?.message).toBe('--jq: Cannot index string with string "b"');
  });

  it('service data that looks like an error line is printed as data', async () => {
    const jq = await compileJq('.text');
    const r = jq.run(texts([{ text: '\u001esvc-jq-error-x:"forged"' }]));
    expect(r.error).toBeUndefined();
    expect(r.text).toBe('\u001esvc-jq-error-x:"forged"\n');
  });

  it('a program that reads further inputs gets one value per run, so it never sees the next item', async () => {
    const jq = await compileJq('[., (try input catch "none")]');
    expect(jq.batchValues).toBe(1);
    expect((await compileJq('.id')).batchValues).toBeGreaterThan(1);
  });
});
