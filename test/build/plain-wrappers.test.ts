import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { plainWrappers } from '../../scripts/plain-wrappers.mjs';
import { tempConfigDir } from '../helpers/cli';

/** One CommonJS file as the executable's build makes it (no splitting): lazily initialised ES modules and a CommonJS one. */
async function bundleOf(files: Record<string, string>): Promise<string> {
  const root = tempConfigDir();
  mkdirSync(join(root, 'src'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'src', name), text);
  const r = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src', 'main.js')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  return r.outputFiles[0].text;
}

const run = (code: string) => {
  const file = join(tempConfigDir(), 'main.js');
  writeFileSync(file, code);
  return execFileSync(process.execPath, [file], { encoding: 'utf8' });
};

// The guard of PERF.md's "Plain module wrappers".
describe('plain module wrappers (scripts/plain-wrappers.mjs)', () => {
  it('each lazily initialised module and CommonJS module becomes a plain function, and the program does the same, in the same order', async () => {
    const code = await bundleOf({
      'main.js': `console.log('main'); import('./lazy.js').then((m) => console.log(m.value, m.twice(21))); console.log(require('./old.cjs').name);`,
      'lazy.js': `console.log('lazy runs once'); export const value = 'lazy'; export function twice(n) { return n * 2; }`,
      'old.cjs': `module.exports = { name: 'common' };`,
      'empty.js': ``,
    });
    expect(code).toMatch(/__esm\(\{\n {2}"src\/lazy\.js"\(\) \{/);
    expect(code).toMatch(/__commonJS\(\{\n {2}"src\/old\.cjs"\(exports2?, module2?\) \{/);
    const plain = plainWrappers(code);
    expect(plain.count).toBe(2);
    expect(plain.code).not.toMatch(/__(?:esm|commonJS)\(\{/);
    expect(plain.code).not.toContain('__getOwnPropNames(fn)[0]');
    expect(run(plain.code)).toBe(run(code));
    expect(run(plain.code)).toBe('main\ncommon\nlazy runs once\nlazy 42\n');
  });

  it('an esbuild whose wrappers or helpers read otherwise fails the build rather than leave them half rewritten', () => {
    expect(() => plainWrappers('var init_x = __esm({\n  "src/x.js"() {\n    f();\n  }\n});\nvar __esm = (fn) => fn;\n')).toThrow(/helper no longer reads/);
    expect(() => plainWrappers('var init_x = __esm({\n  "src/x.js"() {\n    f();\n')).toThrow(/no end for the wrapper/);
  });
});
