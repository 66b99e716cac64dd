import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
let envId = '';

beforeAll(async () => {
  envId = (await svc(['environments', 'create', '--name', 'workers', '--self-hosted', '-o', 'id'], { env: env() })).stdout.trim();
});

describe('svc work list takes the environment as the argument or --environment', () => {
  it('--environment ENV lists what the positional ENV lists', async () => {
    const flag = await svc(['work', 'list', '--environment', envId], { env: env() });
    const positional = await svc(['work', 'list', envId], { env: env() });
    expect(flag.code).toBe(0);
    expect(flag.stdout).toBe(positional.stdout);
    expect(JSON.parse(flag.stdout)).toEqual([]);
  });

  it('the same environment both ways is accepted', async () => {
    expect((await svc(['work', 'list', envId, '--environment', envId], { env: env() })).code).toBe(0);
  });

  it('two different environments, or none, is exit 2 with nothing sent', async () => {
    const before = await requestCount(t.emu);
    const two = await svc(['work', 'list', envId, '--environment', 'env_other'], { env: env() });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('two environments given');
    const none = await svc(['work', 'list'], { env: env() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--environment');
    expect(await requestCount(t.emu)).toBe(before);
  });
});
