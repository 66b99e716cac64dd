import { execFile as execFileCb } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { missingTool } from './requires';

const repo = new URL('../..', import.meta.url).pathname;
const execFile = promisify(execFileCb);

/** `npm test` over the fixture suites, with or without CI set: exit code and the default reporter's output. */
async function vitest(ci: boolean): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CI;
  delete env.VITEST;
  if (ci) env.CI = 'true';
  const args = [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(repo, 'test', 'helpers', 'fixtures', 'vitest.config.ts')];
  try {
    const r = await execFile(process.execPath, args, { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout + x.stderr };
  }
}

describe('suites that need a tool (test/helpers/requires.ts)', () => {
  it('missingTool names the first command or package that is absent', () => {
    expect(missingTool('sh')).toBeUndefined();
    expect(missingTool('sh', 'svc-no-such-tool')).toBe('svc-no-such-tool is not installed');
    expect(missingTool({ file: '/nonexistent/bash_completion', package: 'bash-completion' })).toBe(
      'bash-completion is not installed (no /nonexistent/bash_completion)',
    );
  });

  it('without the tool the suite is skipped, and the default output has one line saying which suite and why', async () => {
    const r = await vitest(false);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n').filter((l) => l.startsWith('skipped: '));
    expect(lines).toEqual(['skipped: a suite that needs a missing tool (test/helpers/fixtures/missing-tool.fixture.ts): svc-no-such-tool is not installed']);
    expect(r.out).not.toContain('the suite hook ran');
  }, 90_000);

  it('under CI the suite fails, and the failure says which tool is missing', async () => {
    const r = await vitest(true);
    expect(r.code).toBe(1);
    expect(r.out).toContain('svc-no-such-tool is not installed: CI installs it (.ci/run)');
    expect(r.out).not.toContain('expected [] to deeply equal');
    expect(r.out).not.toContain('the suite hook ran');
  }, 90_000);
});
