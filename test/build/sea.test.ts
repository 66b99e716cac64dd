import { execFile as execFileCb } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.mjs';
import { cacheOffset, nodeBinary } from '../../scripts/sea.mjs';
import { chunkKeys, REST_ASSET } from '../../scripts/sea-link.mjs';
import { call, useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';

const execFile = promisify(execFileCb);
const repo = new URL('../..', import.meta.url).pathname;
const exe = join(repo, 'dist', 'sea', process.platform === 'win32' ? 'svc.exe' : 'svc');

describe("the single executable's chunks", () => {
  const out = join(repo, 'node_modules', '.cache', `sea-bundle-${process.pid}`);
  beforeAll(() => bundle(out, 'error', [], { sea: true }), 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const chunks = () => chunkKeys(out).map((key) => ({ key, bytes: readFileSync(join(out, key)) }));

  it('are CommonJS files that require only Node builtins and each other, jq-web inside them reading its wasm from the SEA asset', () => {
    // Each optional, in a try or never reached: undici's SQLite cache store (Node 22+), ws's native speed-ups, Ink's devtools.
    const optional = ['node:sqlite', 'bufferutil', 'utf-8-validate', 'react-devtools-core'];
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:sea', ...optional]);
    const all = chunks();
    expect(all.length).toBeGreaterThan(50);
    const texts = all.map((c) => c.bytes.toString('latin1'));
    // A chunk's own `require`, or esbuild's `__require` (a CommonJS package inside an ES chunk) calling it.
    const required = new Set(texts.flatMap((text) => [...text.matchAll(/(?:\brequire|__require\))\("([^"]+)"\)/g)].map((m) => m[1])));
    expect([...required].filter((r) => !builtins.has(r) && !r.startsWith('./'))).toEqual([]);
    expect(required.has('node:fs')).toBe(true);
    expect(texts.some((text) => text.includes(`__require)("node:sea").getAsset("jq.wasm")`))).toBe(true);
    expect(texts.filter((text) => text.includes('import.meta'))).toEqual([]);
  });

  // The guard of PERF.md's "ASCII and minified main": one byte above 0x7f makes V8 hold the source as a two-byte string
  // (twice its size, decoded from UTF-8 on every start); comments and whitespace are bytes each start copies for nothing.
  it('are pure ASCII and minified (whitespace, syntax, names): no comment, licences in a file of their own, one namespace per builtin', () => {
    let total = 0;
    let lines = 0;
    for (const { key, bytes } of chunks()) {
      total += bytes.length;
      const high = bytes.findIndex((b) => b > 0x7f);
      expect(high === -1 ? '' : `${key}: ${bytes.subarray(Math.max(0, high - 60), high + 20).toString('utf8')}`).toBe('');
      const text = bytes.toString('latin1');
      // minifyWhitespace: no comment line, and few lines (newlines are left in templates only; ~78,000 unminified).
      expect(text.match(/^\s*(?:\/\/|\/\*).*$/gm) ?? [], key).toEqual([]);
      lines += text.split('\n').length;
      // minifySyntax: `return true` is written `return!0`.
      expect(text, key).not.toMatch(/\breturn (?:true|false)\b/);
      // minifyIdentifiers (PERF.md, "Names minified"): svc's own names are gone.
      expect(text, key).not.toMatch(/\b(?:soleGroup|buildProgram|shareBuiltinNamespaces)\b/);
      // One namespace per builtin (PERF.md): no builtin goes through esbuild's interop, renamed or not.
      expect(text, key).not.toMatch(/\(require\("node:[a-z_/]+"\),1\)/);
    }
    expect(lines).toBeLessThan(3_000);
    // undici (issue 43) adds its request path and llhttp's WebAssembly, twice in base64 (SIMD and not): ~230 KB; the
    // fifth round's commands (approve, explain, rerun, trace, grep, diff) about 150 KB more, all in the asset.
    expect(total).toBeLessThan(2_200_000);
    expect(chunks().some(({ bytes }) => bytes.toString('latin1').includes('Symbol.for("svc.builtinNamespaces")'))).toBe(true);
    expect(readFileSync(join(out, 'LEGAL.txt'), 'utf8')).toContain('@license React');
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
  // build-time `agents get`, and its own Node (with the flags its loader sets) takes that cache for that source.
  it('was built from a trained code cache, the start-up scripts/build/PERF.md measured best, which its own Node takes', async () => {
    const dir = join(repo, 'dist', 'sea');
    const config = JSON.parse(readFileSync(join(dir, 'sea-config.json'), 'utf8'));
    expect(config).toMatchObject({
      useCodeCache: false,
      assets: {
        'jq.wasm': expect.stringMatching(/jq\.wasm$/),
        'main.js': expect.any(String),
        'main.cache': expect.any(String),
        [REST_ASSET]: expect.any(String),
      },
    });
    const probe = `const { Script } = require('node:vm'); const { readFileSync } = require('node:fs');
      const source = readFileSync(process.argv[1], 'latin1');
      const taken = new Script(source, { filename: 'svc.js', cachedData: readFileSync(process.argv[2]) });
      process.stdout.write(JSON.stringify({ rejected: taken.cachedDataRejected }));`;
    // With no V8 flag, as the loader reads it: the training `agents get` wrote the cache before it set its heavy-run
    // flags (as undici made its first connection: docs/decisions/network.md).
    const { stdout } = await execFile(nodeBinary(config.target), ['-e', probe, join(dir, 'main.cjs'), join(dir, 'main.cache')], { env: {} });
    // A cache V8 refuses (another source, another Node, a V8 flag) would cost every start its compiling, silently.
    expect(JSON.parse(stdout)).toEqual({ rejected: false });
  });

  // The guard of PERF.md's "Only the chunks a command runs": the main holds the chunks `agents get` runs, under a third
  // of svc, and V8 reads the cache where it lies in the executable, copying none of it, only from an 8-byte boundary.
  it('holds in its main only the chunks the training command ran, the rest in an asset; its cache lies on an 8-byte boundary', () => {
    const dir = join(repo, 'dist', 'sea');
    const main = readFileSync(join(dir, 'main.cjs'), 'latin1');
    // With undici's request path (and its llhttp WebAssembly in base64), about 550 KB.
    expect(main.length).toBeLessThan(600_000);
    // A chunk in the main is a function of its table; the rest are only where they lie in the asset.
    expect(main).toMatch(/"chunks\/agents-[A-Z0-9]+\.js":function\(/);
    expect(main).not.toMatch(/"chunks\/emulator-[A-Z0-9]+\.js":function\(/);
    expect(main).toMatch(/"chunks\/emulator-[A-Z0-9]+\.js":\[\d+,\d+\]/);
    expect(cacheOffset(exe, join(dir, 'main.cache')) % 8).toBe(0);
  });

  it('a V8 flag in NODE_OPTIONS makes V8 refuse the cache: the command still runs, and nothing is said on stderr', async () => {
    const agent = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'sea-flag', model: 'scripted-1' } });
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, NODE_OPTIONS: '--max-old-space-size=200' };
    const r = await run(['agents', 'get', agent.body.id, '-o', 'json'], env);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: agent.body.id, name: 'sea-flag' });
    expect(r.stderr).toBe('');
  });
});
