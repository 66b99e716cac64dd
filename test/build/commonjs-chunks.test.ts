import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
});
