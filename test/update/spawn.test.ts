import { describe, expect, it, vi } from 'vitest';

const spawned: Array<{ command: string; args: string[]; options: { env: Record<string, string | undefined>; detached: boolean } }> = [];
vi.mock('node:child_process', () => ({
  spawn: (command: string, args: string[], options: { env: Record<string, string | undefined>; detached: boolean }) => {
    spawned.push({ command, args, options });
    return { unref: () => undefined };
  },
}));

const { startDetachedCheck } = await import('../../src/update/spawn');

describe('the detached update check', () => {
  it('starts `svc __update-check` detached with the environment it was given, less the API key and the work key', () => {
    startDetachedCheck({ HOME: '/home/u', SVC_UPDATE_URL: 'http://127.0.0.1:1/doc', SVC_API_KEY: 'sk-secret', SVC_ENVIRONMENT_KEY: 'ek-secret' });
    expect(spawned).toHaveLength(1);
    const [run] = spawned;
    expect(run!.args.at(-1)).toBe('__update-check');
    expect(run!.options.detached).toBe(true);
    expect(run!.options.env).toMatchObject({ HOME: '/home/u', SVC_UPDATE_URL: 'http://127.0.0.1:1/doc' });
    expect(run!.options.env).not.toHaveProperty('SVC_API_KEY');
    expect(run!.options.env).not.toHaveProperty('SVC_ENVIRONMENT_KEY');
    expect(JSON.stringify(run)).not.toContain('secret');
  });
});
