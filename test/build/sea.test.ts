import { execFile as execFileCb } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.mjs';
import { nodeBinary } from '../../scripts/sea.mjs';
import { call, useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';

const execFile = promisify(execFileCb);
const repo = new URL('../..', import.meta.url).pathname;
const exe = join(repo, 'dist', 'sea', process.platform === 'win32' ? 'svc.exe' : 'svc');

describe("the single executable's main", () => {
  const out = join(repo, 'node_modules', '.cache', `sea-bundle-${process.pid}`);
  beforeAll(() => bundle(out, 'error', [], { sea: true }), 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is one CommonJS file that requires only Node builtins, jq-web inside it reading its wasm from the SEA asset', () => {
    const text = readFileSync(join(out, 'svc.js'), 'utf8');
    const required = new Set([...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]));
    // Each optional, in a try or never reached: undici's SQLite cache store (Node 22+), ws's native speed-ups, Ink's devtools.
    const optional = ['node:sqlite', 'bufferutil', 'utf-8-validate', 'react-devtools-core'];
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:sea', ...optional]);
    expect([...required].filter((r) => !builtins.has(r))).toEqual([]);
    expect(text).toContain(`require("node:sea").getAsset("jq.wasm")`);
    expect(text).not.toContain('import.meta');
  });

  // The guard of PERF.md's "ASCII and minified main": one byte above 0x7f makes V8 hold the source as a two-byte string
  // (twice its size, decoded from UTF-8 on every start); comments and whitespace are bytes each start reads for nothing.
  it('is pure ASCII and minified (whitespace, syntax, names): no comment, licences in a file of their own, one namespace per builtin', () => {
    const bytes = readFileSync(join(out, 'svc.js'));
    const high = bytes.findIndex((b) => b > 0x7f);
    expect(high === -1 ? '' : bytes.subarray(Math.max(0, high - 60), high + 20).toString('utf8')).toBe('');
    const text = bytes.toString('latin1');
    // minifyWhitespace: no comment line (~1,800 unminified) and few lines (~78,000 unminified; newlines left in templates).
    expect(text.match(/^\s*(?:\/\/(?!# sourceMappingURL=)|\/\*).*$/gm) ?? []).toEqual([]);
    expect(text.split('\n').length).toBeLessThan(3_000);
    // minifySyntax: `return true` (~175 unminified) is written `return!0`.
    expect(text).not.toMatch(/\breturn (?:true|false)\b/);
    // minifyIdentifiers (PERF.md, "Names minified"): svc's own names are gone, and the file is 1.3 MB, not 1.85.
    expect(text).not.toMatch(/\b(?:soleGroup|buildProgram|shareBuiltinNamespaces)\b/);
    expect(bytes.length).toBeLessThan(1_500_000);
    // One namespace per builtin (PERF.md): no builtin goes through esbuild's interop, renamed or not.
    expect(text).not.toMatch(/\(require\("node:[a-z_/]+"\),1\)/);
    expect(text).toContain('Symbol.for("svc.builtinNamespaces")');
    // Plain module wrappers (PERF.md): no module is wrapped in an object literal keyed by its path.
    expect(text).not.toMatch(/\(\{"(?:src|node_modules|scripts)\/[^"]+"\(/);
    expect(readFileSync(join(out, 'svc.js.LEGAL.txt'), 'utf8')).toContain('@license React');
  });
});

// Built by `npm run sea` (CI runs it before the tests); without it the suite is skipped, with that reason.
describeWith('the single executable, with no node on PATH', [{ file: exe, package: 'the executable (npm run sea builds it)' }], () => {
  const t = useEmulator();
  const home = mkdtempSync(join(tmpdir(), 'svc-sea-home-'));
  const noNode = mkdtempSync(join(tmpdir(), 'svc-sea-path-'));
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(noNode, { recursive: true, force: true });
  });
  const run = (args: string[], extra: Record<string, string> = {}) =>
    execFile(exe, args, { env: { HOME: home, PATH: noNode, SVC_CONFIG_DIR: join(home, 'config'), ...extra }, cwd: home, timeout: 60_000 });

  it('prints its version and runs the piped demo to its end: the emulator, an agent, a session, a transcript', async () => {
    expect((await run(['--version'])).stdout).toBe(`${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version}\n`);
    const { stdout } = await run(['demo']);
    expect(stdout).toContain('svc demo: an emulator of the service runs at');
    expect(stdout).toContain('The session is idle.');
    // Not on PATH, so the hint names the executable by its path, with no `node` before it.
    expect(stdout).toContain(`  ${exe} emulator --port 0`);
  });

  it('runs --jq with the jq WebAssembly it carries, against the emulator', async () => {
    const agent = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'sea-jq', model: 'scripted-1' } });
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey };
    expect((await run(['agents', 'get', agent.body.id, '--jq', '.name'], env)).stdout).toBe('sea-jq\n');
    const bad = await run(['agents', 'get', agent.body.id, '--jq', '.['], env).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/^error: --jq: /);
  });

  // The guard of PERF.md's "A trained code cache": the executable starts from V8's cache of its main made after a
  // build-time `agents get`, and its own Node (no V8 flag, as the executable runs) takes that cache for that source.
  it('was built from a trained code cache, the start-up scripts/build/PERF.md measured best, which its own Node takes', async () => {
    const dir = join(repo, 'dist', 'sea');
    const config = JSON.parse(readFileSync(join(dir, 'sea-config.json'), 'utf8'));
    expect(config).toMatchObject({
      useCodeCache: false,
      useSnapshot: false,
      assets: { 'jq.wasm': expect.stringMatching(/jq\.wasm$/), 'main.js': expect.any(String), 'main.cache': expect.any(String) },
    });
    const probe = `const { Script } = require('node:vm'); const { readFileSync } = require('node:fs');
      const source = readFileSync(process.argv[1], 'latin1');
      const taken = new Script(source, { filename: 'svc.js', cachedData: readFileSync(process.argv[2]) });
      process.stdout.write(JSON.stringify({ rejected: taken.cachedDataRejected }));`;
    const { stdout } = await execFile(nodeBinary(config.target), ['-e', probe, join(dir, 'main.cjs'), join(dir, 'main.cache')], { env: {} });
    // A cache V8 refuses (another source, another Node, a V8 flag) would cost every start its compiling, silently.
    expect(JSON.parse(stdout)).toEqual({ rejected: false });
  });

  it('a V8 flag in NODE_OPTIONS makes V8 refuse the cache: the command still runs, and nothing is said on stderr', async () => {
    const agent = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'sea-flag', model: 'scripted-1' } });
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, NODE_OPTIONS: '--max-old-space-size=200' };
    const r = await run(['agents', 'get', agent.body.id, '-o', 'json'], env);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: agent.body.id, name: 'sea-flag' });
    expect(r.stderr).toBe('');
  });
});
