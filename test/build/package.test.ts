import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtForOtherUsers, sharedBundle } from '../helpers/bundled';

const repo = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies?: object; scripts: Record<string, string>; files: string[] };

describe('the package holds only what runs', () => {
  it('has no runtime dependencies and no script that runs on the installing machine; it builds before packing', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
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

  it('packs the launcher, the bundle and jq with its WebAssembly, no sources or source maps, in under 8 MiB unpacked', () => {
    // --ignore-scripts: CI has built dist/ already, and the list is what matters here.
    const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repo, encoding: 'utf8' })) as Array<{
      filename: string;
      unpackedSize: number;
      files: Array<{ path: string }>;
    }>;
    // The package's own name (never the public registry's `svc`, another project's), the command still `svc`.
    expect(report.filename).toMatch(/^hosted-agent-svc-\d+\.\d+\.\d+.*\.tgz$/);
    const paths = report.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/svc.js', 'dist/cli.js', 'dist/jq/jq.js', 'dist/jq/jq.wasm', 'completions/_svc']));
    expect(paths.filter((p) => p.endsWith('.map') || p.startsWith('src/') || p.startsWith('node_modules/'))).toEqual([]);
    expect(report.unpackedSize).toBeLessThan(8 * 1024 * 1024);
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
