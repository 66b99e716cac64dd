import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';

describe('svc worker run: the parse step comes first', () => {
  it('--unrestricted-paths with --on-work is exit 2 before the work key is even looked for', async () => {
    const r = await svc(['worker', 'run', '--environment', 'env_1', '--on-work', process.execPath, '--unrestricted-paths']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      'error: --unrestricted-paths applies to the built-in tools, and with --on-work CMD runs the tools: give it to `svc worker serve` in CMD\n',
    );
  });
});
