import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTiers, tierOf } from './tiers';

const root = join(import.meta.dirname, '..', '..');

describe('test tiers', () => {
  it('a file that starts processes or tmux is e2e, one that talks to a server is integration, the rest unit', () => {
    expect(tierOf("import { tmuxSession } from '../helpers/tmux';")).toBe('e2e');
    expect(tierOf("import { spawn } from 'node:child_process';")).toBe('e2e');
    expect(tierOf("import { useEmulator } from '../helpers/emulator';")).toBe('integration');
    expect(tierOf("import { createServer } from 'node:http';")).toBe('integration');
    expect(tierOf("import { reduce } from '../../src/live/reducer';")).toBe('unit');
    // A file that runs programs only through the code under test names its tier.
    expect(tierOf("// tier: e2e (spawns through svc)\nimport { reduce } from '../../src/live/reducer';")).toBe('e2e');
  });

  it('every test file is in exactly one tier, and a helper a test imports decides its tier too', () => {
    const tiers = testTiers(root);
    const all: string[] = [];
    (function walk(d: string) {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.test\.tsx?$/.test(name)) all.push(relative(root, p));
      }
    })(join(root, 'test'));
    const tiered = [...tiers.unit, ...tiers.integration, ...tiers.e2e];
    expect(tiered.sort()).toEqual(all.sort());
    // forward.test.ts imports nothing but its own receiver helper, which starts a server.
    expect(tiers.integration).toContain('test/listen/forward.test.ts');
    expect(tiers.unit).toContain('test/live/reducer.test.ts');
    expect(tiers.e2e).toContain('test/readme.test.ts');
    expect(tiers.e2e).toContain('test/output/pager.test.ts');
  });
});
