// conf in the bundle users get: what the build keeps out of it (scripts/bundle.mjs ALIASES, STAND_INS), and what the
// wrapper keeps of conf's writer there.
import { spawnSync } from 'node:child_process';
import { linkSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';

const svcBin = useBundledSvc();
const recordLoads = fileURLToPath(new URL('../helpers/record-loads.cjs', import.meta.url));

/** The packages each chunk of the build was made from (its source map's `sources`), by chunk file name. */
function packagesByChunk(): Map<string, Set<string>> {
  const chunks = join(dirname(svcBin.bin), '..', 'dist', 'chunks');
  const byChunk = new Map<string, Set<string>>();
  for (const name of readdirSync(chunks).filter((f) => f.endsWith('.js'))) {
    const { sources } = JSON.parse(readFileSync(join(chunks, `${name}.map`), 'utf8')) as { sources: string[] };
    // Resolved first: the private build lies inside node_modules, so its relative paths skip that name.
    const packages = sources.map((s) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolve(chunks, s))?.[1]);
    byChunk.set(name, new Set(packages.filter((p): p is string => p !== undefined)));
  }
  return byChunk;
}

/** The chunk files a run of the built svc loaded, and the builtins. */
function loads(args: string[], env: Record<string, string> = {}): { chunks: string[]; builtins: string[] } {
  const log = join(tempConfigDir(), 'loads.txt');
  spawnSync(process.execPath, ['-r', recordLoads, svcBin.bin, ...args], {
    env: { PATH: process.env.PATH ?? '', SVC_LOAD_LOG: log, SVC_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: 'ignore',
  });
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  return {
    chunks: lines.filter((l) => l.startsWith('file:') && l.includes('/dist/chunks/')).map((l) => l.slice(l.lastIndexOf('/') + 1)),
    builtins: lines.filter((l) => l.startsWith('node:')),
  };
}

// Each test runs the built svc, several times for some: wide bounds for a loaded machine.
describe('the built bundle', { timeout: 60_000 }, () => {
  it("holds conf and its writer, but not conf's schema validator and migrations (svc gives neither) nor atomically's exit hooks", () => {
    const all = new Set([...packagesByChunk().values()].flatMap((s) => [...s]));
    for (const pkg of ['conf', 'atomically', 'dot-prop']) expect(all, pkg).toContain(pkg);
    for (const pkg of ['ajv', 'ajv-formats', 'semver', 'when-exit']) expect(all, pkg).not.toContain(pkg);
  });

  it('svc --version and svc --help load no chunk of conf; a command that reads the config does, without node:crypto', () => {
    const byChunk = packagesByChunk();
    const confChunks = (chunks: string[]) => chunks.filter((c) => byChunk.get(c)?.has('conf'));
    expect(confChunks(loads(['--version']).chunks)).toEqual([]);
    expect(confChunks(loads(['--help']).chunks)).toEqual([]);
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"output":"yaml"}}}', { mode: 0o600 });
    const read = loads(['config', 'get', 'output'], { SVC_CONFIG_DIR: dir });
    expect(new Set(confChunks(read.chunks)).size).toBe(1);
    // conf's encryption, which svc does not use, loads node:crypto on a first use only (the conf-crypto stand-in).
    expect(read.builtins).not.toContain('node:crypto');
    expect(read.builtins).toContain('node:fs');
  });

  it("a command that reads the config hooks no signal but the launcher's own SIGINT and SIGTERM", () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"output":"yaml"}}}', { mode: 0o600 });
    // At exit, the number of listeners of each signal an exit hook would take.
    const probe = join(tempConfigDir(), 'signals.cjs');
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'SIGALRM', 'SIGABRT'];
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeSync(2, 'listeners ' + JSON.stringify(${JSON.stringify(signals)}.map((s) => process.listenerCount(s))) + '\\n'));`,
    );
    const r = spawnSync(process.execPath, ['-r', probe, svcBin.bin, 'config', 'get', 'output'], {
      env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: dir },
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('yaml\n');
    expect(r.stderr).toBe(`listeners ${JSON.stringify([1, 1, 0, 0, 0, 0, 0])}\n`);
  });

  // The guard of the stand-in `stubborn-fs-promisify` (PERF.md's table): stubborn-fs promisified 19 fs functions as it
  // loaded, on every command that reads the config; each is now promisified on its first call, by Node's own promisify.
  it('a command that reads or writes the config promisifies no function of stubborn-fs as it loads', () => {
    const dir = tempConfigDir();
    const probe = join(tempConfigDir(), 'promisify.cjs');
    writeFileSync(
      probe,
      `const util = require('node:util'); const real = util.promisify; let made = 0;
      util.promisify = Object.assign(function (fn) { made++; return real.call(this, fn); }, { custom: real.custom });
      process.on('exit', () => require('node:fs').writeSync(2, 'promisified ' + made + '\\n'));`,
    );
    const svc = (...args: string[]) =>
      spawnSync(process.execPath, ['-r', probe, svcBin.bin, ...args], { env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: dir }, encoding: 'utf8' });
    const set = svc('config', 'set', 'output', 'yaml');
    expect(set.stderr).toBe('set output in profile default\npromisified 0\n');
    const get = svc('config', 'get', 'output');
    expect(get.stdout).toBe('yaml\n');
    expect(get.stderr).toBe('promisified 0\n');
  });

  it('with SNAP set (svc started from inside a snap), a write still replaces the file through a temp file', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles":{}}', { mode: 0o600 });
    // A second name for the same file: a write in place would show through it, a renamed temp file would not.
    const other = join(tempConfigDir(), 'same-file.json');
    linkSync(file, other);
    const r = await spawnSvc(svcBin.bin, ['config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir, SNAP: '/snap/code/1' }).exit;
    expect(r.stderr).toBe('set output in profile default\n');
    expect(readFileSync(other, 'utf8')).toBe('{"profiles":{}}');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.output).toBe('json');
    expect(statSync(file).ino).not.toBe(statSync(other).ino);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
