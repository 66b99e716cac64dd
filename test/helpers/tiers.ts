/**
 * The test tiers (vitest projects), decided from what each file imports and starts, so a new test lands in its tier
 * without a list to keep:
 * - e2e: runs processes (svc built, tmux, shells, the README) or the build itself;
 * - integration: talks to a server over loopback (the emulator, a scripted server) or runs svc in-process;
 * - unit: everything else: no network and no child process, which test/helpers/unit-guard.ts enforces.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Tier = 'unit' | 'integration' | 'e2e';

const E2E = /helpers\/(tmux|readme-script|svc-on-path|bundled|pid-file|held-sleep)\b|node:child_process|\bexecFile\b|\bspawn\(|\bdist\/|scripts\/[\w-]+\.mjs/;
const INTEGRATION = /helpers\/(emulator|cli|fleet|scripted-server|sse)\b|src\/emulator\b|node:http\b|node:https\b|node:net\b|createServer|\bundici\b/;

/** A file may name its tier itself (`// tier: e2e`) where what it runs is not in its own source (svc spawning). */
const DECLARED = /^\/\/ tier: (unit|integration|e2e)\b/m;

/** The tier of one test file's source. */
export function tierOf(source: string): Tier {
  const declared = DECLARED.exec(source)?.[1] as Tier | undefined;
  if (declared) return declared;
  if (E2E.test(source)) return 'e2e';
  if (INTEGRATION.test(source)) return 'integration';
  return 'unit';
}

const LOCAL_IMPORT = /from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** A test file's source with that of the test helpers it imports, transitively (src/ is the code under test, not read). */
function sourceWithHelpers(file: string, testRoot: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  let all = source;
  for (const m of source.matchAll(LOCAL_IMPORT)) {
    const base = resolve(dirname(file), m[1]!);
    if (!base.startsWith(testRoot)) continue;
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile());
    if (found) all += `\n${sourceWithHelpers(found, testRoot, seen)}`;
  }
  return all;
}

/** Every test file under `dir`, by tier, as paths relative to `root`. */
export function testTiers(root: string, dir = 'test'): Record<Tier, string[]> {
  const tiers: Record<Tier, string[]> = { unit: [], integration: [], e2e: [] };
  const testRoot = join(root, dir);
  (function walk(d: string) {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.test\.tsx?$/.test(name)) tiers[tierOf(sourceWithHelpers(p, testRoot))].push(relative(root, p));
    }
  })(testRoot);
  return tiers;
}
