import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { bearer, call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('svc emulator keys', () => {
  it("prints a work key for a self-hosted environment that the environment's queue accepts", async () => {
    const env = JSON.parse((await svc(['environments', 'create', '--name', 'keyed', '--self-hosted', '-o', 'json'], { env: emuEnv(t.emu) })).stdout);
    const r = await svc(['emulator', 'keys', env.id], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ek_\S+\n$/);
    const poll = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll`, { headers: { ...bearer(r.stdout.trim()), 'svc-worker-id': 'w' } });
    expect(poll.status).toBe(200);
  });

  it('an unknown environment is exit 6, and a cloud one exit 7, with one error line and nothing on stdout', async () => {
    const missing = await svc(['emulator', 'keys', 'env_missing'], { env: emuEnv(t.emu) });
    expect(missing.code).toBe(6);
    expect(missing.stdout).toBe('');
    const cloud = JSON.parse((await svc(['environments', 'create', '--name', 'cloudy', '--cloud', '-o', 'json'], { env: emuEnv(t.emu) })).stdout);
    const refused = await svc(['emulator', 'keys', cloud.id], { env: emuEnv(t.emu) });
    expect(refused.code).toBe(7);
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: work keys belong to self_hosted environments/)]);
  });
});

describe('svc emulator keys: the ID is one path segment', () => {
  it('an ID that would leave its path segment (.., a slash) never reaches another path: exit 2 before any request, or 404 for the encoded ID', async () => {
    const dots = await svc(['emulator', 'keys', '..'], { env: emuEnv(t.emu) });
    expect(dots.code).toBe(2);
    expect(dots.stdout).toBe('');
    const slash = await svc(['emulator', 'keys', 'env_x/keys'], { env: emuEnv(t.emu) });
    expect(slash.code).toBe(6);
    expect(slash.stderr).toMatch(/env_x\/keys/);
  });
});
