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

/** What every tier shares. */
const common = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  pool: 'forks' as const,
  // process.kill(0) from a misread pid file once killed the whole CI run: refused in every test process.
  setupFiles: ['test/helpers/kill-guard.ts'],
  // The run's own TMPDIR, removed at its end (test/helpers/temp-setup.ts).
  globalSetup: ['test/helpers/temp-setup.ts'],
};

export default defineConfig({
  test: {
    // Three tiers (test/helpers/tiers.ts): `npm test` runs them all; `npm run test:unit` is the inner loop.
    projects: [
      { test: { ...common, name: 'unit', include: tiers.unit, setupFiles: [...common.setupFiles, 'test/helpers/unit-guard.ts'] } },
      { test: { ...common, name: 'integration', include: tiers.integration } },
      // Only e2e runs svc as built: one private build for the run (test/helpers/bundle-setup.ts), made on first ask.
      { test: { ...common, name: 'e2e', include: tiers.e2e, globalSetup: [...common.globalSetup, 'test/helpers/bundle-setup.ts'] } },
    ],
    // Two cores: keep the number of test files running at once small, across the tiers.
    maxWorkers: 2,
    reporters: ['default', new SkipReasons()],
  },
});
