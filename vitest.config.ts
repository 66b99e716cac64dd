import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two cores: keep the number of test files running at once small.
    maxWorkers: 2,
  },
});
