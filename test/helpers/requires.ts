import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why a suite was skipped: printed by the SkipReasons reporter of vitest.config.ts in the default output. */
    skipReason?: string;
  }
}

/** What a suite needs: a command on PATH (`tmux`), or a file with the package that installs it. */
export type Tool = string | { file: string; package: string };

/** Why the tools are not all here (the first one missing), or undefined when they are. */
export function missingTool(...tools: Tool[]): string | undefined {
  for (const t of tools) {
    if (typeof t === 'string') {
      if (spawnSync('sh', ['-c', 'command -v "$1"', 'sh', t]).status !== 0) return `${t} is not installed`;
    } else if (!existsSync(t.file)) return `${t.package} is not installed (no ${t.file})`;
  }
  return undefined;
}

/**
 * A suite that needs tools. Without them it is skipped, and the SkipReasons reporter (vitest.config.ts) prints one line with the
 * reason in the default output. Under CI, which installs every tool (.ci/run), each of its tests fails with the
 * reason instead: an assertion on empty output would not say what is missing.
 */
export function describeWith(name: string, tools: Tool[], body: () => void): void {
  const reason = missingTool(...tools);
  if (!reason) describe(name, body);
  else if (process.env.CI) {
    describe(name, () => {
      // Registered first: the suite's own hooks (which would use the tool) never run.
      beforeAll(() => {
        throw new Error(`${reason}: CI installs it (.ci/run), so the suite cannot be skipped there`);
      });
      body();
    });
  } else describe(name, { skip: true, meta: { skipReason: reason } }, body);
}
