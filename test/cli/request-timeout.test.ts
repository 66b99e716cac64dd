import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
let session: string;

beforeAll(async () => {
  const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'a', model: 'm' } })).body.id;
  session = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent } })).body.id;
});

const slow = () => call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 3000 } });
const fast = () => call(t.emu, 'POST', '/_emulator/faults', { body: {} });

describe('--request-timeout SECONDS, the per-request timeout everywhere', () => {
  it('bounds each request of a plain verb: a slow answer is exit 10', async () => {
    await slow();
    try {
      const r = await svc(['agents', 'list', '--request-timeout', '0.2', '--max-retries', '0'], { env: env() });
      expect(r.code).toBe(10);
      expect(r.stdout).toBe('');
    } finally {
      await fast();
    }
  });

  it('works on a verb with its own --timeout (sessions wait), where --timeout bounds the whole command', async () => {
    await slow();
    try {
      const r = await svc(['sessions', 'wait', session, '--timeout', '1h', '--request-timeout', '0.2', '--max-retries', '0'], { env: env() });
      expect(r.code).toBe(10);
    } finally {
      await fast();
    }
  });

  it('the old global --timeout before the verb stays the per-request timeout', async () => {
    await slow();
    try {
      const r = await svc(['--timeout', '0.2', '--max-retries', '0', 'agents', 'list'], { env: env() });
      expect(r.code).toBe(10);
    } finally {
      await fast();
    }
  });

  it('a bad value is exit 2 naming --request-timeout, with nothing sent', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'list', '--request-timeout', 'soon'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --request-timeout takes a duration/);
    expect(await requestCount(t.emu)).toBe(before);
  });
});
