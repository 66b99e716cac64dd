import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HEAVY = ['undici', 'ink', 'react', 'yaml', 'jq-web'];

/** Runs the built svc, returning the URLs it loaded, the builtins, and the sources its chunks were built from. */
function loadedSources(args: string[]): { urls: string[]; builtins: string[]; text: string; status: number | null } {
  const log = join(tempConfigDir(), 'loads.txt');
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_LOAD_LOG: log, SVC_CONFIG_DIR: tempConfigDir() };
  // No proxy of the machine's: a proxy variable loads undici's proxy agent.
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[name];
  const { status } = spawnSync(process.execPath, ['-r', join(root, 'test/helpers/record-loads.cjs'), join(root, 'bin/svc.js'), ...args], {
    env,
    // stdin is /dev/null, as under cron or `< /dev/null`: an fs.ReadStream if anything builds process.stdin.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  const urls = lines.filter((u) => u.startsWith('file:'));
  return { urls, builtins: lines.filter((u) => u.startsWith('node:')), status, text: urls.map(sourcesOf).join('\n') };
}

/** The source files a loaded file was built from, one per line: its linked source map's `sources`, else the file itself. */
function sourcesOf(url: string): string {
  const file = fileURLToPath(url);
  const map = `${file}.map`;
  return existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources.join('\n') : file;
}

/** Whether any loaded chunk was built from a file of package `pkg`. */
const holds = (text: string, pkg: string) => new RegExp(`(^|/)node_modules/${pkg.replace('/', '\\/')}/`, 'm').test(text);

// CI builds dist/ first: there a missing build fails these tests instead of skipping them.
describe.skipIf(!existsSync(join(root, 'dist/cli.js')) && !process.env.CI)('start-up imports (needs `npm run build`)', () => {
  it('svc --version loads neither undici, ink, react, yaml nor jq', () => {
    const { urls, text } = loadedSources(['--version']);
    expect(urls.some((u) => u.includes('node_modules'))).toBe(false);
    // The launcher's fast path: the launcher alone, not the command tree.
    expect(urls.some((u) => u.endsWith('/dist/launch.js'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/dist/cli.js'))).toBe(false);
    expect(holds(text, 'commander')).toBe(false);
    for (const pkg of HEAVY) expect(holds(text, pkg), pkg).toBe(false);
  });

  it('svc --help loads none of them either', () => {
    const { text } = loadedSources(['--help']);
    for (const pkg of HEAVY) expect(holds(text, pkg), pkg).toBe(false);
  });

  it('a request command speaks HTTP with undici (its request and Agent, not its index), and loads neither ink nor react', () => {
    const { text, status, urls, builtins } = loadedSources(['agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0']);
    expect(status).toBe(10);
    // The group's apply verb loads its engine (skill packaging: zlib, hashes) only when it runs.
    expect(builtins).not.toContain('node:zlib');
    expect(holds(text, 'undici')).toBe(true);
    expect(text).toMatch(/node_modules\/undici\/lib\/api\/api-request\.js$/m);
    // Not undici's index (fetch, WebSocket, mocks, caches), nor its proxy agent without a proxy variable.
    for (const file of ['index.js', 'lib/web/websocket/websocket.js', 'lib/mock/mock-agent.js', 'lib/dispatcher/proxy-agent.js'])
      expect(text, file).not.toContain(`node_modules/undici/${file}`);
    for (const pkg of ['ink', 'react']) expect(holds(text, pkg), pkg).toBe(false);
    // jq-web stays outside the bundle: its files would show among the loaded URLs.
    expect(urls.some((u) => u.includes('/node_modules/jq-web/'))).toBe(false);
  });

  it('a request command runs on CommonJS alone: no ESM loader, and none of the builtins the start-up work removed', () => {
    const { status, builtins } = loadedSources(['agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0']);
    expect(status).toBe(10);
    // Node compiles these when a first ES module loads (scripts/commonjs-chunks.mjs).
    expect(builtins).not.toContain('node:internal/modules/esm/module_job');
    expect(builtins).not.toContain('node:internal/modules/esm/translators');
    // node:module and node:fs/promises (read lazily) each load more builtins of their own.
    for (const name of ['module', 'fs/promises']) expect(builtins, name).not.toContain(`node:${name}`);
    // The one sleep (src/async/sleep.ts), which a command that can retry loads, uses the global setTimeout.
    expect(builtins).not.toContain('node:timers/promises');
    // undici speaks TLS itself (node:https never loads, node:tls only for an https: URL); its HTTP/2 client (node:http2,
    // node:tls, node:crypto) loads on an HTTP/2 connection only, which svc never allows (scripts/bundle.mjs: STAND_INS
    // `undici-h2`).
    for (const name of ['https', 'http2', 'tls', 'crypto']) expect(builtins, name).not.toContain(`node:${name}`);
    // No V8 flag is set at start-up (a flag voids Node's code cache of its own modules, startup/v8-flags.ts): only
    // as undici makes its first connection, so its llhttp compiles on V8's baseline tier. node:v8 loads for it after
    // every builtin the request needs but the socket's.
    const v8 = builtins.indexOf('node:v8');
    expect(v8).toBeGreaterThan(builtins.indexOf('node:http'));
    // Whether stdin is a terminal (for prompts) is asked without building the stdin stream.
    expect(builtins).not.toContain('node:internal/fs/streams');
    // The recorder sees builtins at all: the HTTP client's own.
    expect(builtins).toContain('node:net');
  });

  it('the engines of sessions trace, grep and diff load only when those verbs run, never for agents get or sessions get', () => {
    const engines = /(^|\/)src\/(trace|grep|diff-sessions)\//m;
    const net = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0'];
    for (const args of [
      ['agents', 'get', 'x', ...net],
      ['sessions', 'get', 'x', ...net],
    ]) {
      const { text, status } = loadedSources(args);
      expect(status, args.join(' ')).toBe(10);
      expect(text, args.join(' ')).not.toMatch(engines);
    }
    // The check can see them: the verb itself loads its engine.
    expect(loadedSources(['sessions', 'trace', 'x', ...net]).text).toMatch(/(^|\/)src\/trace\/spans\.ts$/m);
  });

  it('jq loads only when --jq is given', () => {
    const { urls, status } = loadedSources(['agents', 'get', 'x', '--jq', '.id', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0']);
    expect(status).toBe(10);
    expect(urls.some((u) => u.includes('/dist/jq/jq.js'))).toBe(true);
  });
});
