import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags svc runs with, set once, before any of its own code compiles when started from bin/ (startup/index.ts).
 * - `--liftoff-only`: jq (`--jq`) and the live view's layout (yoga) run as WebAssembly; V8's optimising tier compiling
 *   them costs time and peak RSS a short command never wins back, and the baseline tier runs them fast enough.
 * - `--expose-gc`: young-gc.ts takes `gc` from a fresh context on long streams; the main global never gets it.
 * - `--heap-growing-percent=50`: after a full collection the old generation may grow by half before the next, not up
 *   to four times: a long run that renders (`svc top`) or lists much keeps its peak near what it holds (PERF.md).
 * Both are set together and early because V8 stamps compiled code with its flags: code cached under one set is
 * refused under another (startup/compile-cache.ts), so a flag set half-way through a run would void the cache.
 */
const FLAGS = ['--liftoff-only', '--expose-gc', '--heap-growing-percent=50'];
let applied = false;

export function applyV8Flags(): void {
  if (applied) return;
  applied = true;
  for (const flag of FLAGS) setFlagsFromString(flag);
}
