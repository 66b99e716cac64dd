// Issue 13: `svc api -H` with a header that cannot be sent is a usage error (exit 2) before any request.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('svc api -H', () => {
  it.each([
    ['a CR/LF in the value', 'X-Trace: a\r\nX-Injected: 1', /-H x-trace: the value holds a line break or another control character/],
    ['a bare LF in the value', 'X-Trace: a\nb', /-H x-trace: the value holds a line break/],
    ['a trailing CR/LF', 'X-Trace: a\r\n', /-H x-trace: the value holds a line break/],
    ['a NUL in the value', 'X-Trace: a\u0000b', /control character/],
    ['a space in the name', 'X Trace: a', /-H header name "x trace" is not a valid HTTP header name/],
  ])('%s is exit 2 and sends nothing', async (_what, header, message) => {
    const before = await requestCount(t.emu);
    const r = await svc(['api', 'GET', '/v1/agents', '-H', header], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('a valid header with a tab in its value is sent', async () => {
    const r = await svc(['api', 'GET', '/v1/agents', '-H', 'X-Trace: a\tb'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('items');
  });
});

describe('--debug=api', () => {
  it('is accepted before or after the command, and does not take the next word as its value', async () => {
    for (const args of [
      ['--debug=api', 'agents', 'list'],
      ['agents', 'list', '--debug=api'],
      ['--debug', 'agents', 'list'],
    ]) {
      const r = await svc(args, { env: emuEnv(t.emu) });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^debug: > GET /);
    }
  });
});
