import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtForOtherUsers, sharedBundle } from '../helpers/bundled';

const repo = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  scripts: Record<string, string>;
  files: string[];
};

describe('the package holds only what runs', () => {
  it('lists undici and conf as its dependencies, bundled: installing downloads nothing and runs no script; it builds before packing', () => {
    // esbuild bundles them into dist/; listed and packed, so `npm ls` and a vulnerability scanner see their versions.
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(['conf', 'undici']);
    expect([...(pkg.bundleDependencies ?? [])].sort()).toEqual(['conf', 'undici']);
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined();
    expect(pkg.scripts.prepack).toContain('scripts/build.mjs');
  });

  it('leaves no untracked file behind npm pack: its tarball is ignored by git', () => {
    const name = `${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
      .name.replace(/^@/, '')
      .replace('/', '-')}-0.0.0.tgz`;
    // check-ignore exits 0 when a rule ignores the path (it need not exist), 1 when none does.
    expect(execFileSync('git', ['check-ignore', '--no-index', name], { cwd: repo, encoding: 'utf8' }).trim()).toBe(name);
  });

  it('packs the launcher, the bundle and jq with its WebAssembly (under 8 MiB unpacked), no sources or source maps, and the two bundled dependencies', () => {
    // --ignore-scripts: CI has built dist/ already, and the list is what matters here.
    const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repo, encoding: 'utf8' })) as Array<{
      filename: string;
      unpackedSize: number;
      files: Array<{ path: string; size: number }>;
    }>;
    // The package's own name (never the public registry's `svc`, another project's), the command still `svc`.
    expect(report.filename).toMatch(/^hosted-agent-svc-\d+\.\d+\.\d+.*\.tgz$/);
    const paths = report.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/svc.js', 'dist/cli.js', 'dist/jq/jq.js', 'dist/jq/jq.wasm', 'completions/_svc']));
    const own = report.files.filter((f) => !f.path.startsWith('node_modules/'));
    expect(own.filter((f) => f.path.endsWith('.map') || f.path.startsWith('src/'))).toEqual([]);
    expect(own.reduce((n, f) => n + f.size, 0)).toBeLessThan(8 * 1024 * 1024);
    // node_modules/ holds undici and conf with conf's own dependencies, nothing of svc's other libraries (all in dist/).
    const packed = new Set(paths.filter((p) => p.startsWith('node_modules/')).map((p) => p.split('/')[1]));
    expect(packed).toContain('undici');
    expect(packed).toContain('conf');
    for (const other of ['commander', 'ink', 'react', 'yaml', 'jq-web']) expect(packed.has(other), other).toBe(false);
    expect(report.unpackedSize).toBeLessThan(14 * 1024 * 1024);
  });

  describe('a build laid out away from any node_modules', () => {
    // The run's build, copied to a fresh folder under the system's temporary folder.
    let work = '';
    let bin = '';
    beforeAll(async () => {
      ({ folder: work, bin } = builtForOtherUsers(await sharedBundle()));
    }, 120_000);
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('runs --jq with its own copy of jq-web', () => {
      const out = execFileSync(process.execPath, [bin, 'config', 'profiles', '-o', 'json', '--jq', 'length'], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: join(work, 'config') },
        encoding: 'utf8',
      });
      expect(out.trim()).toMatch(/^\d+$/);
    });
  });
});
