/**
 * The V8 flags of a heavy run (a long one, or one that runs WebAssembly), set as such a run begins: a request as
 * undici makes its first connection, the live view and `svc top` as Ink loads, jq on its first filter, a long stream on its first forced collection. Never at start-up:
 * any V8 flag changes the hash V8 stamps compiled code with, so Node's own code cache of its built-in modules is
 * refused and each one a command loads (net, http, stream…) is compiled afresh, ~7 ms on a request command
 * (scripts/build/PERF.md).
 * - `--liftoff-only`: undici's HTTP parser (llhttp), jq and the live view's layout (yoga) run as WebAssembly; V8's optimising tier compiling them
 *   costs time and peak RSS a command never wins back, and the baseline tier runs them fast enough.
 * - `--expose-gc`: young-gc.ts takes `gc` from a fresh context on long streams; the main global never gets it.
 * - `--heap-growing-percent=50`: after a full collection the old generation may grow by half before the next, not up
 *   to four times: a long run that renders (`svc top`) keeps its peak near what it holds (PERF.md).
 * Set together and once. The code cache first writes what was compiled before the switch, under the old stamp; code
 * compiled after it is cached under the new one (startup/compile-cache.ts): a chunk that loads after it in one run and
 * before it in another (the output's, after jq's first filter) is compiled afresh and cached again when the two kinds
 * of run alternate.
 */
export const HEAVY_RUN_FLAGS = ['--liftoff-only', '--expose-gc', '--heap-growing-percent=50'];
let applied = false;
const beforeSwitch: Array<() => void> = [];

/**
 * `write` runs just before the flags change: a compiled-code cache writes what this run compiled under the old flags
 * then, as V8 refuses an entry made under other flags than the next run starts with (docs/decisions/network.md).
 */
export function beforeFlagSwitch(write: () => void): void {
  beforeSwitch.push(write);
}

export function applyHeavyRunFlags(): void {
  if (applied) return;
  applied = true;
  for (const write of beforeSwitch.splice(0)) write();
  // node:v8 (with its heap and serialisation helpers) loads here, not with this module.
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of HEAVY_RUN_FLAGS) setFlagsFromString(flag);
}
