import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { testTiers } from './test/helpers/tiers';

/** After the summary, one line per suite skipped for a missing tool (test/helpers/requires.ts), with the reason. */
class SkipReasons implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const m of modules) {
      for (const s of m.children.allSuites()) {
        const reason = (s.meta() as { skipReason?: string }).skipReason;
        if (reason) this.vitest?.logger.log(`skipped: ${s.name} (${relative(this.vitest.config.root, m.moduleId)}): ${reason}`);
      }
    }
  }
}

const tiers = testTiers(import.meta.dirname);

export default defineConfig({
  test: {
    // Three tiers (test/helpers/tiers.ts): `npm test` runs them all; `npm run test:unit` is the inner loop.
    projects: [
      { extends: true, test: { name: 'unit', include: tiers.unit, setupFiles: ['test/helpers/unit-guard.ts'] } },
      { extends: true, test: { name: 'integration', include: tiers.integration } },
      { extends: true, test: { name: 'e2e', include: tiers.e2e } },
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The run's own TMPDIR, removed at its end (test/helpers/temp-setup.ts); one private build of svc for the run.
    globalSetup: ['test/helpers/temp-setup.ts', 'test/helpers/bundle-setup.ts'],
    // process.kill(0) from a misread pid file once killed the whole CI run: refused in every test process.
    setupFiles: ['test/helpers/kill-guard.ts'],
    pool: 'forks',
    // Two cores: keep the number of test files running at once small.
    maxWorkers: 2,
    reporters: ['default', new SkipReasons()],
  },
});
