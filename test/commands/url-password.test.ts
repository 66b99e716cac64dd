// Issue 13: a base URL's password never reaches the screen, from config or from doctor.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const PASSWORD = 'hunter2-url-secret';

describe('a password in the base URL', () => {
  it('is masked by config get, config list and config profiles', async () => {
    const env = { SVC_CONFIG_DIR: tempConfigDir() };
    const url = `http://ops:${PASSWORD}@127.0.0.1:4010`;
    expect((await svc(['config', 'set', 'base_url', url], { env })).code).toBe(0);
    for (const args of [
      ['config', 'get', 'base_url'],
      ['config', 'list', '-o', 'json'],
      ['config', 'profiles', '-o', 'json'],
    ]) {
      const r = await svc(args, { env });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(PASSWORD);
      expect(r.stdout, args.join(' ')).toContain('ops:***@127.0.0.1:4010');
    }
  });

  it("is masked in doctor's connectivity line", async () => {
    const url = t.emu.url.replace('http://', `http://ops:${PASSWORD}@`);
    const r = await svc(['doctor', '-o', 'json'], { env: emuEnv(t.emu, { SVC_BASE_URL: url }) });
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(r.stdout).toContain('ops:***@');
  });
});
