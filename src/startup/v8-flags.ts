import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags svc runs with, set once, before any of its own code compiles when started from bin/ (startup/index.ts).
 * - `--liftoff-only`: undici parses HTTP with a WebAssembly llhttp; V8's optimising tier compiling it costs ~35 MB of
 *   peak RSS and ~50 ms per request command, and the baseline tier parses fast enough (bench/run.mjs).
 * - `--expose-gc`: relief.ts takes `gc` from a fresh context on long streams; the main global never gets it.
 * Both are set together and early because V8 stamps compiled code with its flags: code cached under one set is
 * refused under another (startup/compile-cache.ts), so a flag set half-way through a run would void the cache.
 */
const FLAGS = ['--liftoff-only', '--expose-gc'];
let applied = false;

export function applyV8Flags(): void {
  if (applied) return;
  applied = true;
  for (const flag of FLAGS) setFlagsFromString(flag);
}
