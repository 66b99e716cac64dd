// Rules proved here: R-STREAM-20, R-STREAM-25, R-STREAM-28, R-STREAM-29, R-STREAM-30
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setFaults, trackStreams } from '../api/stream/helpers';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agentSession, history, send, waitIdleEvents, waitUntil } from '../helpers/sse';
import { acceptedEvents, startListen, waitAccepted } from '../listen/helpers';
import { useReceiver, verifySignature, type Received } from '../listen/receiver';

const t = useEmulator({ modelStepMs: 1 });
const receiver = useReceiver();
let streamsOpen: ReturnType<typeof trackStreams>;
beforeAll(() => {
  streamsOpen = trackStreams(t.emu);
});
afterEach(async () => {
  receiver.respond = () => ({ status: 200 });
  await setFaults(t.emu, {});
});

const session = async (extra: Record<string, unknown> = {}) => (await agentSession(t.emu, {}, extra)).id as string;
/** What the session persisted, in order (previews are never delivered). */
const persisted = async (sid: string) => (await history(t.emu, `/v1/sessions/${sid}`)).map((e) => e.id);
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('svc listen --forward-to', () => {
  it('posts every event of a session as {"session_id","event"}, signed so that a receiver holding the printed secret verifies it', async () => {
    const config = tempConfigDir();
    const secret = await svc(['listen', '--print-secret'], { env: { SVC_CONFIG_DIR: config } });
    expect(secret.code).toBe(0);
    const key = secret.stdout.trim();
    expect(key.length).toBeGreaterThan(16);
    expect(statSync(join(config, 'listen-secret')).mode & 0o777).toBe(0o600);
    const sid = await session();
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url], { SVC_CONFIG_DIR: config });
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo hello there');
    await waitAccepted(receiver, sid, 'session.status', 2);
    const r = await l.stop();
    expect(r.code).toBe(130);

    const mine = receiver.accepted.filter((x) => x.json.session_id === sid);
    expect(mine.map((x) => x.json.event.id)).toEqual(await persisted(sid));
    for (const x of mine) {
      expect(Object.keys(x.json)).toEqual(['session_id', 'event']);
      expect(x.headers['content-type']).toBe('application/json');
      expect(x.headers['svc-event-type']).toBe(x.json.event.type);
      expect(x.headers['svc-delivery-id']).toMatch(/^dlv_[0-9a-f]{32}$/);
      expect(verifySignature(x.headers['svc-signature'], x.body, key)).toBe(true);
      // Another secret, or a changed body, does not verify.
      expect(verifySignature(x.headers['svc-signature'], x.body, key + 'x')).toBe(false);
      expect(verifySignature(x.headers['svc-signature'], x.body.replace(sid, sid + 'x'), key)).toBe(false);
    }
    expect(new Set(mine.map((x) => x.headers['svc-delivery-id'])).size).toBe(mine.length);
    // stdout: one NDJSON line per settled delivery.
    expect(ndjson(r.stdout).map((x) => [x.id, x.outcome])).toEqual(mine.map((x) => [x.headers['svc-delivery-id'], 'delivered']));
  });

  it('retries a delivery on 503, 408 and 429 (after its Retry-After) with the same Svc-Delivery-Id and body, until the receiver accepts it', async () => {
    const failures = [{ status: 503 }, { status: 408 }, { status: 429, headers: { 'retry-after': '1' } }];
    const tries = new Map<string, number>();
    receiver.respond = (req) => {
      const id = String(req.headers['svc-delivery-id']);
      const n = tries.get(id) ?? 0;
      tries.set(id, n + 1);
      // Each delivery fails once, with each failure in turn.
      return n === 0 ? failures[tries.size % failures.length] : { status: 200 };
    };
    const sid = await session();
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url]);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo one two');
    await waitAccepted(receiver, sid, 'session.status', 2, 20_000);
    const r = await l.stop();
    const mine = receiver.requests.filter((x) => x.json.session_id === sid);
    const byId = new Map<string, Received[]>();
    for (const x of mine) byId.set(String(x.headers['svc-delivery-id']), [...(byId.get(String(x.headers['svc-delivery-id'])) ?? []), x]);
    expect([...byId.values()].map((all) => all.map((x) => x.status))).toEqual([...byId.values()].map(() => [expect.any(Number), 200]));
    for (const [, [first, second]] of byId) {
      expect(first.status).not.toBe(200);
      expect(second.body).toBe(first.body);
      expect(second.headers['svc-delivery-attempt']).toBe('2');
      if (first.status === 429) expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    }
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(await persisted(sid));
    expect(r.stderr).toMatch(/attempt 1 failed: status 503; next attempt in/);
    expect(ndjson(r.stdout).every((x) => x.outcome === 'delivered' && x.attempts === 2)).toBe(true);
  }, 30_000);

  it("sends a URL's user and password as Basic credentials, and never shows the password", async () => {
    const sid = await session();
    const withAuth = receiver.url.replace('http://', 'http://hook-user:s3cr3t-pass@');
    const l = startListen(t.emu, [sid, '--forward-to', withAuth, '--events', 'agent.message', '--debug']);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo with credentials');
    const [got] = await waitAccepted(receiver, sid, 'agent.message');
    const r = await l.stop();
    const req = receiver.accepted.find((x) => x.json.event.id === got.id)!;
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:s3cr3t-pass').toString('base64')}`);
    expect(r.stdout + r.stderr).not.toContain('s3cr3t-pass');
  });

  it('masks a token given as the URL user alone (https://TOKEN@host/) in the listening line and in --debug, and sends it as Basic credentials', async () => {
    const sid = await session();
    const token = 'tok_' + 'Q7'.repeat(12);
    const withToken = receiver.url.replace('http://', `http://${token}@`);
    const l = startListen(t.emu, [sid, '--forward-to', withToken, '--events', 'agent.message', '--debug']);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo with a token');
    const [got] = await waitAccepted(receiver, sid, 'agent.message');
    const r = await l.stop();
    const req = receiver.accepted.find((x) => x.json.event.id === got.id)!;
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${token}:`).toString('base64')}`);
    expect(r.stderr).toContain(`delivering to ${receiver.url.replace('http://', 'http://***@')}`);
    expect(r.stderr).toContain(`debug: > POST ${receiver.url.replace('http://', 'http://***@')}`);
    expect(r.stdout + r.stderr).not.toContain(token);
  });

  it('reports a 4xx other than 408 and 429 on stderr and drops that event; the next events are still delivered', async () => {
    receiver.respond = (req) => (req.json?.event?.type === 'agent.message' ? { status: 422 } : { status: 200 });
    const sid = await session();
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url]);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo dropped reply');
    await waitAccepted(receiver, sid, 'session.status', 2);
    const r = await l.stop();
    const refused = receiver.requests.filter((x) => x.json.session_id === sid && x.status === 422);
    expect(refused).toHaveLength(1);
    expect(r.stderr).toContain(`delivery ${refused[0].headers['svc-delivery-id']} (session ${sid}, agent.message) dropped: status 422`);
    expect(acceptedEvents(receiver, sid).map((e) => e.type)).not.toContain('agent.message');
    expect(ndjson(r.stdout).find((x) => x.type === 'agent.message')).toMatchObject({ outcome: 'dropped', status: 422, attempts: 1 });
    expect(r.stderr).toMatch(/delivered \d+, dropped 1/);
  });

  it('derives session.requires_action with the tool name and input when a session waits on a confirmation or a custom tool result; --events keeps only the types asked for', async () => {
    const sid = await session();
    const failing = await session();
    const l = startListen(t.emu, [sid, failing, '--forward-to', receiver.url, '--events', 'session.requires_action,session.error']);
    await waitUntil(() => streamsOpen(sid) && streamsOpen(failing), 'the streams to open');
    await send(t.emu, sid, '/confirm bash {"command":"rm -rf build"}\n/custom lookup {"q":"invoice 42"}');
    await send(t.emu, failing, '/error model_error');
    const got = await waitAccepted(receiver, sid, 'session.requires_action', 2);
    const h = await history(t.emu, `/v1/sessions/${sid}`);
    const ask = h.find((e) => e.type === 'agent.tool_use')!;
    const custom = h.find((e) => e.type === 'agent.custom_tool_use')!;
    expect(got.map((e) => e.data)).toEqual([
      { kind: 'tool_confirmation', event_id: ask.id, name: 'bash', input: { command: 'rm -rf build' } },
      { kind: 'custom_tool_result', event_id: custom.id, name: 'lookup', input: { q: 'invoice 42' } },
    ]);
    expect(got.map((e) => e.processed_at)).toEqual([ask.processed_at, custom.processed_at]);
    await waitAccepted(receiver, failing, 'session.error');
    await waitIdleEvents(t.emu, failing, 1);
    await l.stop();
    expect(acceptedEvents(receiver, sid).map((e) => e.type)).toEqual(['session.requires_action', 'session.requires_action']);
    expect(acceptedEvents(receiver, failing).map((e) => e.type)).toEqual(['session.error']);
  });
});

describe('svc listen: session.requires_action on replayed history', () => {
  /** Two calls at once that wait on a human; the confirmation is answered, the custom tool result is not. */
  async function confirmedButStillWaiting(sid: string): Promise<{ ask: any; custom: any }> {
    await send(t.emu, sid, '/confirm deploy {"env":"prod"}\n/custom lookup {"q":"invoice 42"}');
    const waiting = await waitUntil(async () => {
      const s = (await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body;
      return s.stop_reason?.event_ids?.length === 2 ? s : undefined;
    }, 'the session to wait on both calls');
    const h = await history(t.emu, `/v1/sessions/${sid}`);
    const ask = h.find((e) => e.type === 'agent.tool_use')!;
    const custom = h.find((e) => e.type === 'agent.custom_tool_use')!;
    expect(waiting.stop_reason.event_ids.sort()).toEqual([ask.id, custom.id].sort());
    const answer = { events: [{ type: 'user.tool_confirmation', data: { event_id: ask.id, result: 'allow' } }] };
    expect((await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: answer })).status).toBe(202);
    await waitUntil(async () => {
      const s = (await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body;
      return s.stop_reason?.event_ids?.length === 1 && s.stop_reason.event_ids[0] === custom.id;
    }, 'the session to wait on the custom tool only');
    return { ask, custom };
  }
  /** Every persisted event delivered, and `derived` requires_action events after them: nothing else can follow. */
  const waitAll = async (sid: string, derived: number) => {
    const all = await persisted(sid);
    await waitUntil(() => acceptedEvents(receiver, sid).filter((e) => e.type !== 'session.requires_action').length >= all.length, 'every event delivered');
    await waitAccepted(receiver, sid, 'session.requires_action', derived);
    return all;
  };
  const derivedOf = (sid: string) =>
    acceptedEvents(receiver, sid)
      .filter((e) => e.type === 'session.requires_action')
      .map((e) => e.data.event_id);

  it('a session read from its start derives nothing for an ask answered later in its history, and one event for an ask still unanswered', async () => {
    const team = `r${Date.now()}`;
    const l = startListen(t.emu, ['-l', `team=${team}`, '--forward-to', receiver.url, '--interval', '100ms']);
    await waitUntil(() => l.stderr().includes('listening to'), 'the listener to start');
    // Created after the listener started, it matches only once both calls were made and one answered.
    const sid = await session({ metadata: { team: 'not-yet' } });
    const { custom } = await confirmedButStillWaiting(sid);
    expect((await call(t.emu, 'PATCH', `/v1/sessions/${sid}`, { body: { metadata: { team } } })).status).toBe(200);
    const all = await waitAll(sid, 1);
    await l.stop();
    expect(derivedOf(sid)).toEqual([custom.id]);
    expect(
      acceptedEvents(receiver, sid)
        .filter((e) => e.type !== 'session.requires_action')
        .map((e) => e.id),
    ).toEqual(all);
  });

  it('a restart with --state derives nothing for an ask answered while nobody listened, and one event for the one still unanswered', async () => {
    const file = join(tempConfigDir(), 'listen-state.json');
    const sid = await session();
    const first = startListen(t.emu, [sid, '--forward-to', receiver.url, '--state', file]);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo before the downtime');
    await waitAccepted(receiver, sid, 'session.status', 2);
    expect((await first.stop()).code).toBe(130);
    const { custom } = await confirmedButStillWaiting(sid);
    const second = startListen(t.emu, [sid, '--forward-to', receiver.url, '--state', file]);
    await waitAll(sid, 1);
    await second.stop();
    expect(derivedOf(sid)).toEqual([custom.id]);
  });

  it('a session already waiting whose ask is also read from history (the state began before it) derives it once', async () => {
    const file = join(tempConfigDir(), 'listen-state.json');
    writeFileSync(file, JSON.stringify({ version: 1, since: new Date(Date.now() - 60_000).toISOString(), sessions: {} }));
    const sid = await session();
    const { custom } = await confirmedButStillWaiting(sid);
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url, '--state', file]);
    await waitAll(sid, 1);
    await l.stop();
    expect(derivedOf(sid)).toEqual([custom.id]);
  });
});

describe('svc listen: sessions already waiting, missing, and a bounded run', () => {
  it('derives session.requires_action for a session that was already waiting on a confirmation when the listener started', async () => {
    const sid = await session();
    await send(t.emu, sid, '/confirm write {"path":"notes.txt"}');
    await waitUntil(async () => (await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body.requires_action === true, 'the session to wait');
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url, '--events', 'session.requires_action']);
    const [got] = await waitAccepted(receiver, sid, 'session.requires_action');
    const ask = (await history(t.emu, `/v1/sessions/${sid}`)).find((e) => e.type === 'agent.tool_use')!;
    expect(got.data).toEqual({ kind: 'tool_confirmation', event_id: ask.id, name: 'write', input: { path: 'notes.txt' } });
    await l.stop();
    expect(acceptedEvents(receiver, sid)).toHaveLength(1);
  });

  it('records the session.requires_action of a session already waiting in --state: restarts do not deliver it again', async () => {
    const file = join(tempConfigDir(), 'listen-state.json');
    const sid = await session();
    await send(t.emu, sid, '/confirm write {"path":"once.txt"}');
    await waitUntil(async () => (await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body.requires_action === true, 'the session to wait');
    const first = startListen(t.emu, [sid, '--forward-to', receiver.url, '--events', 'session.requires_action', '--state', file]);
    await waitAccepted(receiver, sid, 'session.requires_action');
    expect((await first.stop()).code).toBe(130);
    // Settled like any delivery: the state knows the session now.
    expect(JSON.parse(readFileSync(file, 'utf8')).sessions[sid]).toBeDefined();
    for (let run = 2; run <= 3; run++) {
      const r = await svc(['listen', sid, '--forward-to', receiver.url, '--events', 'session.requires_action', '--state', file, '--timeout', '2s'], {
        env: emuEnv(t.emu, { SVC_CONFIG_DIR: first.env.SVC_CONFIG_DIR }),
      });
      expect(r.stderr).toMatch(/delivered 0, dropped 0\n$/);
    }
    expect(acceptedEvents(receiver, sid)).toHaveLength(1);
  });

  it('exits 6 when the sessions named on the command line are not found, saying which', async () => {
    const r = await svc(['listen', 'sesn_missing_1', '--exec', 'true'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('session sesn_missing_1: not found; no longer followed');
  });

  it('exits 4 when the service refuses the API key, whether sessions are named or selected', async () => {
    for (const args of [['sesn_any'], ['--status', 'idle']]) {
      const r = await svc(['listen', ...args, '--exec', 'true'], { env: emuEnv(t.emu, { SVC_API_KEY: 'sk_not_a_key_of_this_emulator' }) });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^error: .*status=401/m);
      expect(r.stderr).not.toContain('sk_not_a_key_of_this_emulator');
    }
  });

  it('--timeout stops the listener after that long with exit 0 and the summary', async () => {
    const sid = await session();
    const r = await svc(['listen', sid, '--exec', 'true', '--timeout', '1s'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/delivered 0, dropped 0\n$/);
  });
});

describe('svc listen --exec', () => {
  it('runs CMD once per event with the JSON on stdin and SVC_SESSION_ID, SVC_EVENT_TYPE in its environment, never the API key', async () => {
    const dir = tempConfigDir();
    const out = join(dir, 'events.ndjson');
    const sid = await session();
    const cmd = `{ printf '%s|%s|%s|' "$SVC_SESSION_ID" "$SVC_EVENT_TYPE" "\${SVC_API_KEY-none}"; env | grep -c '^SVC_' | tr -d '\\n'; printf '|'; cat; } >> ${out}`;
    const l = startListen(t.emu, [sid, '--exec', cmd, '--events', 'user.message,agent.message'], { SVC_ENVIRONMENT_KEY: 'ek_should_not_pass' });
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo from exec');
    await waitUntil(() => {
      try {
        return readFileSync(out, 'utf8').split('\n').filter(Boolean).length >= 2;
      } catch {
        return false;
      }
    }, 'two runs of CMD');
    const r = await l.stop();
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    const h = (await history(t.emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'user.message' || e.type === 'agent.message');
    expect(lines).toHaveLength(2);
    lines.forEach((line, i) => {
      const [s, type, key, count, json] = line.split('|');
      expect([s, type, key]).toEqual([sid, h[i].type, 'none']);
      // SVC_SESSION_ID, SVC_EVENT_TYPE, SVC_EVENT_ID, SVC_DELIVERY_ID, SVC_DELIVERY_ATTEMPT: nothing else of svc's.
      expect(count).toBe('5');
      expect(JSON.parse(json)).toEqual({ session_id: sid, event: h[i] });
    });
    expect(r.stdout + r.stderr).not.toContain(t.emu.apiKey);
  });

  it('retries a command that exits non-zero, with the same SVC_DELIVERY_ID, and reports each failure', async () => {
    const dir = tempConfigDir();
    const log = join(dir, 'runs');
    const sid = await session();
    // Fails the first run of each delivery, succeeds the second.
    const cmd = `echo "$SVC_DELIVERY_ID $SVC_DELIVERY_ATTEMPT" >> ${log}; [ "$SVC_DELIVERY_ATTEMPT" = 2 ]`;
    const l = startListen(t.emu, [sid, '--exec', cmd, '--events', 'agent.message']);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo again');
    await waitUntil(() => ndjson(l.stdout()).length === 1, 'the delivery to settle', 15_000);
    const r = await l.stop();
    const runs = readFileSync(log, 'utf8').trim().split('\n');
    const id = ndjson(r.stdout)[0].id;
    expect(runs).toEqual([`${id} 1`, `${id} 2`]);
    expect(r.stderr).toContain(`delivery ${id} (session ${sid}, agent.message) attempt 1 failed: exit 1`);
  }, 20_000);
});

describe('svc listen: the secret', () => {
  it('never shows the signing secret in any output, with --debug and SVC_DEBUG=api too; only --print-secret prints it', async () => {
    const dir = tempConfigDir();
    const secretFile = join(dir, 'secret');
    const secret = 'whsec_test_' + 'k'.repeat(40);
    writeFileSync(secretFile, secret + '\n', { mode: 0o600 });
    const sid = await session();
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url, '--secret-file', secretFile, '--debug'], { SVC_DEBUG: 'api' });
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, `/echo ${secret}`);
    await waitAccepted(receiver, sid, 'session.status', 2);
    const r = await l.stop();
    expect(r.stderr).toContain('debug: > POST');
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stderr).not.toContain(secret.slice(0, 24));
    const printed = await svc(['listen', '--print-secret', '--secret-file', secretFile], { env: { SVC_CONFIG_DIR: dir } });
    expect(printed.stdout).toBe(secret + '\n');
  });
});

describe('svc listen: bad flags', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['neither --forward-to nor --exec', [], /give --forward-to or --exec/],
    ['both --forward-to and --exec', ['--forward-to', 'http://127.0.0.1:9/x', '--exec', 'true'], /--forward-to and --exec cannot be used together/],
    ['a URL that is not http(s)', ['--forward-to', 'ftp://example.com/x'], /--forward-to takes an http:\/\/ or https:\/\/ URL/],
    ['no URL at all', ['--forward-to', 'localhost:8080'], /--forward-to takes an http:\/\/ or https:\/\/ URL/],
    ['an unknown event type', ['--forward-to', 'http://127.0.0.1:9/x', '--events', 'session.stauts'], /--events: unknown event type "session.stauts"/],
    ['an empty event type', ['--forward-to', 'http://127.0.0.1:9/x', '--events', 'session.error,'], /--events takes event types separated by commas/],
    ['agent.delta', ['--forward-to', 'http://127.0.0.1:9/x', '--events', 'agent.delta'], /agent.delta is a live preview/],
    ['--secret-file with --exec', ['--exec', 'true', '--secret-file', 'x'], /--exec runs a local command and signs nothing/],
    ['--print-secret with a target', ['--print-secret', '--forward-to', 'http://127.0.0.1:9/x'], /--print-secret prints the signing secret and exits/],
    ['IDs and selectors together', ['sesn_1', '--status', 'idle', '--exec', 'true'], /not both/],
    ['a bad --max-streams', ['--exec', 'true', '--max-streams', '0'], /--max-streams must be between 1/],
    ['a bad --interval', ['--exec', 'true', '--interval', 'soon'], /--interval takes a duration/],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 2 with one line and sends nothing: ${what}`, async () => {
      const before = await requestCount(t.emu);
      const r = await svc(['listen', ...args], { env: emuEnv(t.emu) });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(await requestCount(t.emu)).toBe(before);
    });
  }

  it('exits 2 naming the file when --state is not a listen state file, and leaves it as it was', async () => {
    const file = join(tempConfigDir(), 'state.json');
    writeFileSync(file, '{"not":"a state"}');
    const before = await requestCount(t.emu);
    const r = await svc(['listen', 'sesn_1', '--exec', 'true', '--state', file], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--state ${file} is not a listen state file`);
    expect(readFileSync(file, 'utf8')).toBe('{"not":"a state"}');
    expect(await requestCount(t.emu)).toBe(before);
  });
});

describe("svc listen: the service's Retry-After", () => {
  it('waits as long as a 429 asks (clamped to 60 s) before listing the fleet again, not its own shorter back-off', async () => {
    // Every request is refused with Retry-After: 45; the API client retries it itself, then gives up to the listener.
    await setFaults(t.emu, { rate_limit_every: 1, retry_after: 45 });
    const waits: number[] = [];
    // Waits are recorded and shortened, so the test takes no minute.
    const sleep = (ms: number) => (waits.push(ms), new Promise<void>((r) => setTimeout(r, 5)));
    const l = startListen(t.emu, ['--status', 'idle', '--exec', 'true', '--interval', '1s'], {}, sleep);
    await waitUntil(() => /listing sessions failed/.test(l.stderr()), 'the listing to fail');
    await setFaults(t.emu, {});
    await l.stop();
    const said = /listing sessions failed: .*; trying again in (\d+)s/.exec(l.stderr());
    expect(Number(said?.[1])).toBeGreaterThanOrEqual(45);
    expect(Number(said?.[1])).toBeLessThanOrEqual(60);
    // Every wait before another request is the interval's or at least what the service asked.
    expect(waits.filter((ms) => ms !== 1000 && ms < 45_000)).toEqual([]);
  });
});

describe('svc listen: many sessions', () => {
  it('picks up sessions that come to match the selectors after it started, from their first event', async () => {
    const team = `t${Date.now()}`;
    const l = startListen(t.emu, ['-l', `team=${team}`, '--forward-to', receiver.url, '--interval', '100ms']);
    await waitUntil(() => l.stderr().includes('listening to'), 'the listener to start');
    const other = await session({ metadata: { team: 'someone-else' } });
    const sid = await session({ metadata: { team } });
    await send(t.emu, sid, '/echo picked up');
    await send(t.emu, other, '/echo not picked up');
    await waitIdleEvents(t.emu, other, 1);
    await waitAccepted(receiver, sid, 'session.status', 2);
    await l.stop();
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(await persisted(sid));
    expect(acceptedEvents(receiver, other)).toEqual([]);
  });

  it('reads session IDs from standard input with -', async () => {
    const sid = await session();
    await send(t.emu, sid, '/echo before');
    await waitIdleEvents(t.emu, sid, 1);
    const r = await svc(['listen', '-', '--exec', 'true', '--timeout', '2s'], { env: emuEnv(t.emu), stdin: `${sid}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('listening to 1 session(s)');
  });

  it('reads a session that is archived to its end, then stops following it', async () => {
    const team = `a${Date.now()}`;
    const sid = await session({ metadata: { team } });
    const l = startListen(t.emu, ['-l', `team=${team}`, '--forward-to', receiver.url, '--interval', '100ms']);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo last words');
    await waitIdleEvents(t.emu, sid, 1);
    expect((await call(t.emu, 'POST', `/v1/sessions/${sid}/archive`)).status).toBe(200);
    await waitUntil(() => l.stderr().includes(`session ${sid}: left the selection (archived or deleted); no longer followed`), 'the session to leave');
    await waitUntil(() => !streamsOpen(sid), 'its stream to close');
    // The terminated status comes after the archive: read by the last read of the session's history.
    const all = await persisted(sid);
    expect((await history(t.emu, `/v1/sessions/${sid}`)).at(-1).data).toEqual({ status: 'terminated' });
    await waitUntil(() => acceptedEvents(receiver, sid).length === all.length, 'every event delivered');
    await l.stop();
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(all);
  });

  it('follows more sessions than --max-streams by polling the rest: every event of every session delivered once, in order', async () => {
    const ids = [await session(), await session(), await session()];
    const l = startListen(t.emu, [...ids, '--forward-to', receiver.url, '--max-streams', '1', '--interval', '100ms']);
    await waitUntil(() => ids.filter((id) => streamsOpen(id)).length === 1, 'one stream');
    for (const id of ids) await send(t.emu, id, '/echo polled or streamed');
    for (const id of ids) await send(t.emu, id, '/echo and again');
    for (const id of ids) await waitAccepted(receiver, id, 'session.status', 4);
    const r = await l.stop();
    for (const id of ids) expect(acceptedEvents(receiver, id).map((e) => e.id)).toEqual(await persisted(id));
    expect(r.code).toBe(130);
  });

  it('R-STREAM-20 R-STREAM-25 R-STREAM-28 R-STREAM-29 R-STREAM-30 loses and repeats nothing when streams drop and cursors expire', async () => {
    const sid = await session();
    await setFaults(t.emu, { drop_stream_after: 3, expire_cursors_older_than: 2 });
    const l = startListen(t.emu, [sid, '--forward-to', receiver.url]);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/long 5');
    await waitIdleEvents(t.emu, sid, 1);
    await send(t.emu, sid, '/echo after the drops');
    await waitAccepted(receiver, sid, 'session.status', 4, 20_000);
    await setFaults(t.emu, {});
    const r = await l.stop();
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(await persisted(sid));
    expect(r.stderr).toContain(`session ${sid}: reconnecting`);
    const stats = (await call(t.emu, 'GET', '/_emulator/stats')).body;
    expect(stats.stream_drops).toBeGreaterThan(0);
    expect(stats.cursors_expired).toBeGreaterThan(0);
    expect(r.stderr).toContain(`session ${sid}: the stream cursor expired`);
  }, 30_000);
});

describe('svc listen --state', () => {
  it('after Ctrl-C (exit 130) a restart with the same --state sends nothing again and delivers what came meanwhile', async () => {
    const file = join(tempConfigDir(), 'listen-state.json');
    const sid = await session();
    const first = startListen(t.emu, [sid, '--forward-to', receiver.url, '--state', file]);
    await waitUntil(() => streamsOpen(sid), 'the stream to open');
    await send(t.emu, sid, '/echo first turn');
    await waitAccepted(receiver, sid, 'session.status', 2);
    const r1 = await first.stop();
    expect(r1.code).toBe(130);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.sessions[sid].event_id).toBe((await persisted(sid)).at(-1));
    expect(statSync(file).mode & 0o777).toBe(0o600);

    await send(t.emu, sid, '/echo while nobody listened');
    await waitIdleEvents(t.emu, sid, 2);
    const before = receiver.requests.length;
    const second = startListen(t.emu, [sid, '--forward-to', receiver.url, '--state', file]);
    await waitAccepted(receiver, sid, 'session.status', 4);
    await second.stop();
    const again = receiver.requests.slice(before).map((x) => x.json.event.id);
    const all = await persisted(sid);
    expect(again).toEqual(all.slice(all.length - again.length));
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(all);
  });
});
