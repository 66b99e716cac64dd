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
  // every module that imported it by default (node:process: 85), on every start. A module that reads only the default
  // gets `{ default }` alone ("Only the chunks a command runs"); a namespace import, read whole, one namespace a process.
  it('a builtin imported by default is its default alone; imported whole in two chunks, one namespace for the process', async () => {
    const outdir = await convert({
      'main.js': `import process from 'node:process';
        import { env } from 'node:process';
        import * as os from 'node:os';
        export async function run() {
          const other = await import('./other.js');
          return { sameOs: other.osOf() === os, osKeys: Object.keys(os).includes('platform'), pid: process.pid === other.pid(), env: env === other.env(), sep: other.sep() };
        }`,
      'other.js': `import process from 'node:process';
        import path from 'node:path';
        import * as os from 'node:os';
        export const osOf = () => os;
        export const pid = () => process.pid;
        export const env = () => process.env;
        export const sep = () => path.sep;`,
    });
    const main = readFileSync(join(outdir, 'main.js'), 'utf8');
    const other = readFileSync(join(outdir, readdirSync(outdir).find((f) => f.startsWith('other') && f.endsWith('.js')) ?? 'other.js'), 'utf8');
    expect(main + other).not.toMatch(/__toESM\(require\("node:/);
    expect(main).toMatch(/var import_node_process = \{ default: require\("node:process"\) \};/);
    expect(other).toMatch(/var import_node_process = \{ default: require\("node:process"\) \};/);
    expect(other).toMatch(/var import_node_path = \{ default: require\("node:path"\) \};/);
    expect(main).toContain('__svcBuiltinNamespace(require("node:os"))');
    // Count the getters defined while both chunks load: node:os's namespace, once, and the chunks' own exports.
    const script = `const once = Object.getOwnPropertyNames(require('node:os')).length;
      const d = Object.defineProperty; let getters = 0;
      Object.defineProperty = (o, k, desc) => { if (desc && desc.get) getters++; return d(o, k, desc); };
      require(${JSON.stringify(join(outdir, 'main.js'))}).run().then((r) => process.stdout.write(JSON.stringify({ ...r, getters, once })))`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(out).toMatchObject({ sameOs: true, osKeys: true, pid: true, env: true, sep: '/' });
    // Five exports in all, twice (esbuild's CommonJS copies a chunk's namespace); a second node:os namespace would add
    // its every property again, node:process's 85 more.
    expect(out.getters).toBeGreaterThanOrEqual(out.once);
    expect(out.getters).toBeLessThan(out.once + 15);
    // The source map still leads back to src/: the helper went after the code.
    const map = JSON.parse(readFileSync(join(outdir, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/main.js'))).toBe(true);
    expect(main.trimEnd().split('\n').at(-1)).toMatch(/^\/\/# sourceMappingURL=main\.js\.map$/);
  });
});
