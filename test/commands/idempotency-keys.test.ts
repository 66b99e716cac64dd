// Rules proved here: R-IDEM-13 — a key is never reused across operations or resources.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { history, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);

/** `METHOD path → key` for every keyed request line of --debug output (retries of one request share it). */
function keyedRequests(stderr: string): Array<{ op: string; key: string }> {
  const out = new Map<string, { op: string; key: string }>();
  for (const m of stderr.matchAll(/> (POST|PATCH|PUT|DELETE) (\S+) attempt=\d+ idempotency-key=(\S+)/g)) {
    const op = `${m[1]} ${new URL(m[2]).pathname}`;
    out.set(`${op} ${m[3]}`, { op, key: m[3] });
  }
  return [...out.values()];
}

describe('idempotency keys across operations', () => {
  it('R-IDEM-13 svc run keys the session create and the message send differently, even with --idempotency-key', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'keys', model: 'scripted-1' } })).body.id;
    const r = await svc(['run', '--agent', agent, '--message', '/echo keyed', '--idempotency-key', 'user-key-1', '--debug'], { env: env() });
    expect(r.code).toBe(0);
    const sid = /session (sesn_\S+)/.exec(r.stderr)![1];
    const keyed = keyedRequests(r.stderr);
    expect(keyed.map((k) => k.op)).toEqual(['POST /v1/sessions', `POST /v1/sessions/${sid}/events`]);
    expect(keyed[0].key).toBe('user-key-1');
    expect(keyed[1].key).not.toBe('user-key-1');
    // A second run without a key: fresh keys, none shared with the first.
    const again = await svc(['run', '--agent', agent, '--message', '/echo keyed', '--debug'], { env: env() });
    expect(again.code).toBe(0);
    const all = [...keyed, ...keyedRequests(again.stderr)].map((k) => k.key);
    expect(all).toHaveLength(4);
    expect(new Set(all).size).toBe(4);
  });

  it('R-IDEM-13 the same message sent twice is two sends: two keys, two events on the server', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'keys2', model: 'scripted-1' } })).body.id;
    const sid = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent } })).body.id;
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await svc(['sessions', 'send', sid, '--text', 'same text', '--debug'], { env: env() });
      expect(r.code).toBe(0);
      keys.push(...keyedRequests(r.stderr).map((k) => k.key));
    }
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    // The second may wait in the queue while the first turn runs; both reach the history.
    await waitUntil(
      async () => (await history(t.emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'user.message').length === 2,
      'both messages in the history',
    );
  });
});
