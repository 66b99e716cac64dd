import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const hintOf = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('hint: '));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the hint under an error on a terminal', () => {
  it('a missing ID keeps its one error line and hints at names and `svc <group> list`', async () => {
    const r = await svc(['agents', 'get', 'agent_nope'], { env: emuEnv(t.emu), stderrTTY: true });
    expect(r.code).toBe(6);
    const [line, hint, ...rest] = r.stderr.trimEnd().split('\n');
    expect(line).toMatch(/^error: .*agent_nope.*\(type=resource_not_found_error status=404/);
    expect(hint).toBe("hint: Check the ID and its visibility; `svc agents list` shows each agent's ID with its name, and a name works in place of an ID");
    expect(rest).toEqual([]);
  });

  it.each([
    [['environments', 'update', 'env_nope', '--description', 'x'], '`svc environments list` shows each environment'],
    [['memory-stores', 'get', 'memstore_nope'], '`svc memory-stores list` shows each memory store'],
    [['sessions', 'get', 'sesn_nope'], '`svc sessions list` shows the session IDs'],
    [['threads', 'get', 'sesn_nope', 'sthr_nope'], '`svc threads list SESSION` shows the thread IDs'],
  ])('%j names its own group’s list', async (args, text) => {
    const r = await svc(args, { env: emuEnv(t.emu), stderrTTY: true });
    expect(r.code).toBe(6);
    expect(hintOf(r.stderr)).toContain(text);
  });

  it('an unreachable base URL stored in a profile names the profile and the fix', async () => {
    const dir = tempConfigDir();
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: t.emu.apiKey };
    expect((await svc(['config', 'set', 'base_url', url], { env })).code).toBe(0);
    const r = await svc(['agents', 'list', '--max-retries', '0'], { env, stderrTTY: true });
    expect(r.code).toBe(10);
    expect(r.stderr).toContain(`error: cannot reach ${url}: ECONNREFUSED`);
    expect(hintOf(r.stderr)).toBe(`hint: base_url ${url} comes from profile "default": change it with \`svc config set base_url URL\`, or pass --base-url URL`);
    // The same URL from the environment is not the profile's doing: the emulator hint instead.
    const fromEnv = await svc(['agents', 'list', '--max-retries', '0'], { env: { ...env, SVC_BASE_URL: url }, stderrTTY: true });
    expect(fromEnv.code).toBe(10);
    expect(hintOf(fromEnv.stderr)).toBe('hint: is the emulator running (`svc emulator`), or is SVC_BASE_URL set?');
  });

  it('a base URL from a named profile says which one, and how to change that profile', async () => {
    const dir = tempConfigDir();
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: t.emu.apiKey };
    expect((await svc(['config', 'set', 'base_url', url, '--profile', 'staging'], { env })).code).toBe(0);
    const r = await svc(['agents', 'list', '--max-retries', '0', '--profile', 'staging'], { env, stderrTTY: true });
    expect(hintOf(r.stderr)).toBe(
      `hint: base_url ${url} comes from profile "staging": change it with \`svc config set base_url URL --profile staging\`, or pass --base-url URL`,
    );
  });
});
