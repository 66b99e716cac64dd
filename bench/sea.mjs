/**
 * The single executable's start-up (not in CI): `svc agents get ID -o json` from the executable scripts/sea.mjs builds
 * (its trained code cache), in one interleaved run beside `node -e 0`, bench/floor-get.cjs (one GET with node:http, the body to stdout) and
 * bench/floor-undici-get.cjs (the same GET with undici's `request`), on the executable's own Node and on this
 * machine's node; and `node bin/svc.js`, the package, on this machine's node (its goal is a ratio to `node -e 0` there). Each figure is the median of its runs,
 * each ratio the median of the per-round ratios to the floor on the executable's Node (wall time; CPU time as the ratio
 * of medians). Every binary is a copy written in one write (heldAlike). `ROUNDS=21`.
 * Builds into node_modules/.cache/, never dist/.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved } from './lib/measure.mjs';
import { buildSea, hostTarget, nodeBinary, NODE_VERSION } from '../scripts/sea.mjs';
import { scriptedAgent, startEmulator } from './lib/emulator-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 21);
const work = join(root, 'node_modules', '.cache', `sea-bench-${process.pid}`);
const seaNode = nodeBinary(hostTarget());
process.stderr.write('building the executable\n');
const built = await buildSea({ out: join(work, 'built') });

/**
 * A copy of `file` written in one write, as every binary measured here is: how the kernel holds a binary's pages
 * (written in one piece, by tar in blocks, copied with copy_file_range) moved the same Node's `node:http` GET between
 * 84 and 109 ms on this machine, more than svc's whole margin (PERF.md, "Binaries held alike"). Node from tar against
 * the executable from postject made the executable look 1.25× the GET; held alike it is 1.5×.
 */
function heldAlike(file, name) {
  const copy = join(work, name);
  writeFileSync(copy, readFileSync(file));
  chmodSync(copy, 0o755);
  return copy;
}
const floorNode = heldAlike(seaNode, 'node');
const exe = heldAlike(built, 'svc');

const configDir = mkdtempSync(join(tmpdir(), 'svc-sea-bench-'));
const cacheDir = mkdtempSync(join(tmpdir(), 'svc-sea-bench-cache-'));
const emulator = startEmulator(exe, [], 'sk_bench', process.env);
try {
  const url = await emulator.url;
  const agent = await scriptedAgent(url, 'sk_bench', 'bench');
  const env = { ...process.env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench', SVC_CONFIG_DIR: configDir, XDG_CACHE_HOME: cacheDir };
  const get = ['agents', 'get', agent.id, '-o', 'json'];
  const floorArgs = [join(root, 'bench', 'floor-get.cjs'), `${url}/v1/agents/${agent.id}`, 'sk_bench'];
  const undiciArgs = [join(root, 'bench', 'floor-undici-get.cjs'), `${url}/v1/agents/${agent.id}`, 'sk_bench'];
  const hostZero = `node -e 0, node ${process.version}`;
  const packaged = `node bin/svc.js, node ${process.version}`;
  const narrow = `undici narrow GET, node ${process.version}`;
  const subjects = {
    'node -e 0': { cmd: floorNode, args: ['-e', '0'], env },
    'node:http GET': { cmd: floorNode, args: floorArgs, env },
    'undici GET': { cmd: floorNode, args: undiciArgs, env },
    'node:http GET, Node as tar extracted it': { cmd: seaNode, args: floorArgs, env },
    [hostZero]: { cmd: process.execPath, args: ['-e', '0'], env },
    [`node:http GET, node ${process.version}`]: { cmd: process.execPath, args: floorArgs, env },
    [`undici GET, node ${process.version}`]: { cmd: process.execPath, args: undiciArgs, env },
    // The package's floor on undici: its Agent and api-request alone, one file, from a code cache (floor-undici-narrow.cjs).
    [narrow]: { cmd: process.execPath, args: [join(root, 'bench', 'floor-undici-narrow.cjs'), ...undiciArgs.slice(1)], env },
    'dist/sea/svc': { cmd: exe, args: get, env },
    ...(existsSync(join(root, 'dist', 'cli.js')) ? { [packaged]: { cmd: process.execPath, args: [join(root, 'bin', 'svc.js'), ...get], env } } : {}),
  };
  const r = interleaved(ROUNDS, subjects);
  const floor = 'node:http GET';
  process.stdout.write(
    `\nagents get -o json, ${ROUNDS} interleaved rounds; the executable on Node ${NODE_VERSION}, floors on its Node unless named; each binary a copy written in one write\n`,
  );
  process.stdout.write(`${'subject'.padEnd(44)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)} ${'RSS'.padStart(9)}  vs node:http GET (wall, CPU)\n`);
  for (const n of Object.keys(subjects)) {
    const ratios = `${r.ratio(n, floor).toFixed(2)}×, ${r.cpuRatio(n, floor).toFixed(2)}×`;
    process.stdout.write(
      `${n.padEnd(44)} ${r.ms(n).toFixed(0).padStart(5)} ms ${r.cpuMs(n).toFixed(0).padStart(5)} ms ${r.mib(n).toFixed(1).padStart(5)} MiB  ${ratios}\n`,
    );
  }
  process.stdout.write(
    `size: ${(statSync(exe).size / 2 ** 20).toFixed(1)} MiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  if (subjects[packaged]) {
    for (const n of [packaged, narrow])
      process.stdout.write(`${n} vs ${hostZero}: ${r.ratio(n, hostZero).toFixed(2)}× wall, ${r.cpuRatio(n, hostZero).toFixed(2)}× CPU\n`);
  }
  process.stdout.write(`goals: dist/sea/svc within 1.4× the node:http GET; node bin/svc.js within 2.0× node -e 0 on Node 20\n`);
} finally {
  emulator.child.kill();
  rmSync(work, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
}
