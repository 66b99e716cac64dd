// Every duration flag passes src/text/duration.ts: past what a timer can hold (24 days) or an age the service can be
// sent, it is exit 2 naming the flag and the bound, before any request.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const refused: Array<[string, string[], string, { stdoutTTY?: boolean }?]> = [
  ['list -w --interval', ['sessions', 'list', '-w', '--interval', '30d'], '--interval must be at most 24d'],
  ['list -w --timeout', ['sessions', 'list', '-w', '--timeout', '720h'], '--timeout must be at most 24d'],
  ['agents list -w --interval', ['agents', 'list', '-w', '--interval', '25d'], '--interval must be at most 24d'],
  ['listen --interval', ['listen', '--exec', 'true', '--interval', '30d'], '--interval must be at most 24d'],
  ['listen --timeout', ['listen', '--exec', 'true', '--timeout', '720h'], '--timeout must be at most 24d'],
  ['top --interval', ['top', '--interval', '30d'], '--interval must be at most 24d', { stdoutTTY: true }],
  ['sessions wait --timeout', ['sessions', 'wait', 'sesn_x', '--timeout', '720h'], '--timeout must be at most 24d'],
  ['run --timeout', ['run', '--agent', 'agent_x', '--message', 'hi', '--timeout', '720h'], '--timeout must be at most 24d'],
  ['--request-timeout', ['agents', 'list', '--request-timeout', '720h'], '--request-timeout must be at most 24d'],
  [
    'worker run --heartbeat-interval',
    ['worker', 'run', '--environment', 'env_x', '--heartbeat-interval', '2592000'],
    '--heartbeat-interval must be at most 24d',
  ],
  ['worker run --max-idle', ['worker', 'run', '--environment', 'env_x', '--max-idle', '720h'], '--max-idle must be at most 24d'],
  ['--older-than 999999999d', ['sessions', 'list', '--older-than', '999999999d'], '--older-than must be at most 36500d'],
  ['--older-than 100000000d', ['sessions', 'archive', '--older-than', '100000000d', '--yes'], '--older-than must be at most 36500d'],
  ['--newer-than', ['agents', 'list', '--newer-than', '100000000d'], '--newer-than must be at most 36500d'],
  ['--idle-for', ['sessions', 'list', '--idle-for', '99999999999999999999d'], '--idle-for must be at most 36500d'],
];

describe('duration flags past their bound', () => {
  for (const [name, args, message, o] of refused) {
    it(`${name}: exit 2 naming the flag and the bound, nothing sent`, async () => {
      const before = await requestCount(t.emu);
      const r = await svc(args, { env: emuEnv(t.emu), ...o });
      expect(r.stderr).toBe(`error: ${message}\n`);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(await requestCount(t.emu)).toBe(before);
    });
  }

  it('at the bound they are taken: --older-than 36500d lists, list -w --timeout 24d starts', async () => {
    const r = await svc(['sessions', 'list', '--older-than', '36500d', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const ctrlC = new AbortController();
    const watching = svc(['sessions', 'list', '-w', '--timeout', '24d', '--interval', '24d'], { env: emuEnv(t.emu), signal: ctrlC.signal });
    const before = await requestCount(t.emu);
    // The first listing is sent, and no poll follows at once (a 24-day interval is a 24-day interval).
    for (let i = 0; i < 50 && (await requestCount(t.emu)) === before; i++) await new Promise((r) => setTimeout(r, 20));
    const listed = await requestCount(t.emu);
    await new Promise((r) => setTimeout(r, 200));
    expect(await requestCount(t.emu)).toBe(listed);
    ctrlC.abort();
    expect((await watching).code).toBe(130);
  });
});
