import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { toCommonJs } from '../../scripts/commonjs-chunks.mjs';
import { tempConfigDir } from '../helpers/cli';

/**
 * Bundles `files` (name → source; `main.js` is the entry) as the build does: split ESM, then CommonJS chunks. Small
 * sources of the test's own, not svc (whose one build per run is test/helpers/bundled.ts).
 */
async function convert(files: Record<string, string>): Promise<string> {
  const root = tempConfigDir();
  mkdirSync(join(root, 'src'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'src', name), text);
  const outdir = join(root, 'dist');
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { main: join(root, 'src', 'main.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
  });
  await toCommonJs(outdir, metafile, root);
  return outdir;
}

describe('the bundle as CommonJS chunks (scripts/commonjs-chunks.mjs)', () => {
  it('a chunk loaded by import() becomes a require(); import.meta.url names the chunk; strict mode holds; no ESM loader starts', async () => {
    const outdir = await convert({
      'main.js': `export async function run() {
        const lazy = await import('./lazy.js');
        let strict = false;
        try { undeclared = 1; } catch { strict = true; }
        return { value: lazy.value, url: import.meta.url, strict };
      }`,
      'lazy.js': `export const value = 'from the lazy chunk';`,
    });
    expect(JSON.parse(readFileSync(join(outdir, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    const script = `require(${JSON.stringify(join(outdir, 'main.js'))}).run().then((r) => process.stdout.write(JSON.stringify({ ...r, esm: process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job') })))`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(out).toEqual({ value: 'from the lazy chunk', url: `file://${join(outdir, 'main.js')}`, strict: true, esm: false });
    // The source map still leads back to src/.
    const map = JSON.parse(readFileSync(join(outdir, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/main.js'))).toBe(true);
  });

  it('a chunk with top-level await fails the build, naming the chunk and what to do', async () => {
    await expect(convert({ 'main.js': `const v = await Promise.resolve(1);\nexport default v;` })).rejects.toThrow(
      /main\.js \(from src\/\) cannot be CommonJS: Top-level await.*SOURCE_PATCHES/,
    );
  });

  // The guard of PERF.md's "One namespace per builtin": esbuild's interop made a getter per property of the builtin in
  // every module that imported it by default (node:process: 85), on every start.
  it('a builtin imported by default in two chunks gets one namespace for the process: its default and named members work, no getter copied twice', async () => {
    const outdir = await convert({
      'main.js': `import process from 'node:process';
        import { env } from 'node:process';
        export async function run() {
          const other = await import('./other.js');
          return { same: other.namespaceOf() === namespaceOf(), pid: process.pid === other.pid(), env: env === other.env(), sep: other.sep() };
        }
        export function namespaceOf() { return typeof process; }`,
      'other.js': `import process from 'node:process';
        import path from 'node:path';
        export const namespaceOf = () => typeof process;
        export const pid = () => process.pid;
        export const env = () => process.env;
        export const sep = () => path.sep;`,
    });
    const main = readFileSync(join(outdir, 'main.js'), 'utf8');
    expect(main).not.toMatch(/__toESM\(require\("node:/);
    expect(main).toContain('__svcBuiltinNamespace(require("node:process"))');
    // Count the getters esbuild's interop defines while both chunks load: node:process's and node:path's, once each.
    // One namespace each is a getter per property of node:process and of node:path, in the process that loads them.
    const script = `const once = Object.getOwnPropertyNames(process).length + Object.getOwnPropertyNames(require('node:path')).length;
      const d = Object.defineProperty; let getters = 0;
      Object.defineProperty = (o, k, desc) => { if (desc && desc.get) getters++; return d(o, k, desc); };
      require(${JSON.stringify(join(outdir, 'main.js'))}).run().then((r) => process.stdout.write(JSON.stringify({ ...r, getters, once })))`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    const once = out.once as number;
    expect(out).toMatchObject({ same: true, pid: true, env: true, sep: '/' });
    // Each chunk's own exports are getters too (a handful); a second copy of node:process would add 85.
    expect(out.getters).toBeGreaterThanOrEqual(once);
    expect(out.getters).toBeLessThan(once + 20);
    // The source map still leads back to src/: the helper went after the code.
    const map = JSON.parse(readFileSync(join(outdir, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/main.js'))).toBe(true);
    expect(main.trimEnd().split('\n').at(-1)).toMatch(/^\/\/# sourceMappingURL=main\.js\.map$/);
  });

  // The guard of PERF.md's "Only the chunks a command runs" (own exports): esbuild's __toCommonJS copied each chunk's
  // namespace into a new object, one more getter closure and descriptor per export, on every chunk a command loads.
  it("a chunk exports its namespace itself: one getter per export, live bindings and __esModule kept", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const outdir = await convert({
      'main.js': `export async function run() {
          const lib = await import('./lib.js');
          const before = lib.counter;
          lib.bump();
          return { before, after: lib.counter, esModule: lib.__esModule === true, keys: Object.keys(lib).length, again: lib === (await import('./lib.js')) };
        }`,
      'lib.js': `${names.map((n, i) => `export const ${n} = ${i};`).join('\n')}
        export let counter = 0;
        export function bump() { counter++; }`,
    });
    const lib = readFileSync(join(outdir, readdirSync(outdir).find((f) => f.startsWith('lib') && f.endsWith('.js')) ?? 'lib.js'), 'utf8');
    expect(lib).not.toContain('__copyProps(__defProp({}');
    const script = `const d = Object.defineProperty; let getters = 0;
      Object.defineProperty = (o, k, desc) => { if (desc && desc.get) getters++; return d(o, k, desc); };
      require(${JSON.stringify(join(outdir, 'main.js'))}).run().then((r) => process.stdout.write(JSON.stringify({ ...r, getters })))`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(out).toMatchObject({ before: 0, after: 1, esModule: true, keys: names.length + 2, again: true });
    // 42 exports of lib, 1 of main: copied, it was twice that.
    expect(out.getters).toBe(names.length + 3);
  });
});
