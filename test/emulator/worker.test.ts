// Rules proved here: R-WORK-8, R-WORK-9, R-WORK-12, R-WORK-19, R-WORK-23, R-WORK-24, R-WORK-31, R-WORK-39, R-WORK-40,
// R-SESS-49, R-SESS-50, R-STREAM-1 — a self-hosted session served by a minimal worker written here, over real HTTP.
import { describe, expect, it } from 'vitest';
import { runsOnWorker } from '../../src/wire/tools';
import { bearer, call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, send, SseClient, waitSession, waitUntil } from '../helpers/sse';
import { selfHostedEnvironment } from '../worker/helpers';

const t = useEmulator({ modelStepMs: 2 });

type Env = { id: string; key: string };
const selfHosted = selfHostedEnvironment;

const rowsOf = async (env: Env, sessionId: string): Promise<any[]> =>
  (await call(t.emu, 'GET', `/v1/environments/${env.id}/work?page_size=1000`)).body.items.filter((r: any) => r.session_id === sessionId);

/**
 * The smallest worker docs/service.md allows: poll with the environment work key, ack and heartbeat with the row's
 * session work token, follow the session stream with that token, answer each sandbox `agent.tool_use` that is
 * allowed and has no result yet with `user.tool_result`, and stop the row once the session is idle.
 */
class MiniWorker {
  row!: { id: string; session_id: string; generation: number };
  token = '';
  replayed = 0;
  stream?: SseClient;
  readonly ran: string[] = [];

  constructor(private readonly env: Env) {}

  async claim(): Promise<void> {
    const poll = await call(t.emu, 'GET', `/v1/environments/${this.env.id}/work/poll?block_ms=5000`, {
      headers: { ...bearer(this.env.key), 'svc-worker-id': 'mini' },
    });
    expect(poll.status).toBe(200);
    const item = poll.body.items[0];
    expect(item).toMatchObject({ status: 'queued', worker_id: 'mini' });
    this.row = item;
    this.token = JSON.parse(Buffer.from(item.secret, 'base64url').toString('utf8')).sessions_token;
  }

  lease(op: 'ack' | 'heartbeat' | 'stop', extra: Record<string, unknown> = {}) {
    return call(t.emu, 'POST', `/v1/environments/${this.env.id}/work/${this.row.id}/${op}`, {
      body: { generation: this.row.generation, ...extra },
      headers: bearer(this.token),
    });
  }

  async start(): Promise<void> {
    expect((await this.lease('ack')).body.status).toBe('starting');
    expect((await this.lease('heartbeat')).body.status).toBe('active');
    // The history at start: calls are judged only once the stream has replayed it, as a real worker reads history first.
    const seen = await call(t.emu, 'GET', `/v1/sessions/${this.row.session_id}/events?page_size=1000`, { headers: bearer(this.token) });
    this.replayed = seen.body.items.length;
    this.stream = await SseClient.open(t.emu, `/v1/sessions/${this.row.session_id}/events/stream`, {}, this.token);
    expect(this.stream.status).toBe(200);
  }

  /** Calls this worker must run now: sandbox names, allowed (directly or by a confirmation), with no result yet. */
  runnable(): any[] {
    const events = this.stream!.events.map((f) => f.json);
    if (events.length < this.replayed) return [];
    const done = new Set(events.filter((e) => e.type === 'user.tool_result' || e.type === 'agent.tool_result').map((e) => e.data.event_id));
    const allowed = new Set(events.filter((e) => e.type === 'user.tool_confirmation' && e.data.result === 'allow').map((e) => e.data.event_id));
    return events.filter(
      (e) =>
        e.type === 'agent.tool_use' &&
        runsOnWorker(e.data) &&
        !done.has(e.id) &&
        !this.ran.includes(e.id) &&
        (e.data.permission === 'allow' || allowed.has(e.id)),
    );
  }

  /** Runs the next call (the "sandbox" echoes the command) and writes its result back with the session work token. */
  async serveOne(): Promise<any> {
    const use = await waitUntil(() => this.runnable()[0], 'a runnable tool call');
    this.ran.push(use.id);
    const content = [{ type: 'text', text: `ran ${use.data.name} ${JSON.stringify(use.data.input)}` }];
    const r = await call(t.emu, 'POST', `/v1/sessions/${this.row.session_id}/events`, {
      body: { events: [{ type: 'user.tool_result', data: { event_id: use.id, content } }] },
      headers: bearer(this.token),
    });
    expect(r.status, JSON.stringify(r.body) + JSON.stringify(use)).toBe(202);
    return use;
  }

  close(): void {
    this.stream?.close();
  }
}

const idleAfter = (w: MiniWorker, eventId: string) =>
  w.stream!.waitFor((f) => {
    const after = w.stream!.events.findIndex((x) => x.json.type === 'agent.tool_result' && x.json.data.event_id === eventId);
    return after >= 0 && w.stream!.events.indexOf(f) > after && f.json.type === 'session.status' && f.json.data.status === 'idle';
  }, 'idle after the tool result');

describe('emulator: a worker serving a self-hosted session', () => {
  it('R-WORK-8 R-WORK-19 R-WORK-23 R-WORK-24 R-WORK-31 a sandbox tool call queues a row; the worker runs it, the agent continues, and the idle stop completes the row', async () => {
    const env = await selfHosted(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    expect(await rowsOf(env, s.id)).toEqual([]);
    await send(t.emu, s.id, '/tool bash {"command":"echo hi"}');
    const [queued] = await waitUntil(async () => ((await rowsOf(env, s.id)).length ? rowsOf(env, s.id) : undefined), 'a queued row');
    expect(queued).toMatchObject({ status: 'queued', generation: 1, environment_id: env.id });

    const w = new MiniWorker(env);
    try {
      await w.claim();
      await w.start();
      const use = await w.serveOne();
      expect(use.data).toEqual({ name: 'bash', input: { command: 'echo hi' }, permission: 'allow' });
      await idleAfter(w, use.id);
      const events = w.stream!.events.map((f) => f.json);
      const result = events.find((e) => e.type === 'agent.tool_result');
      expect(result.data).toMatchObject({ event_id: use.id, tool_result: { content: [{ type: 'text', text: 'ran bash {"command":"echo hi"}' }] } });
      expect(events.find((e) => e.type === 'agent.message').data.content[0].text).toBe('Tool bash finished.');
      expect(events.map((e) => e.type)).toContain('user.tool_result');

      // History reads with the session work token too.
      const history = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`, { headers: bearer(w.token) });
      expect(history.body.items.filter((e: any) => e.type === 'agent.tool_result')).toHaveLength(1);

      const stopped = await w.lease('stop', { final_status: 'completed' });
      expect(stopped.body).toMatchObject({ status: 'completed', id: w.row.id });
      expect(stopped.body.stopped_at).toEqual(expect.any(String));
      expect((await call(t.emu, 'GET', `/v1/environments/${env.id}/work/${w.row.id}`)).body.status).toBe('completed');
      expect((await getSession(t.emu, s.id)).status).toBe('idle');
      // The row ended, so its token did too (R-WORK-12).
      expect((await w.lease('heartbeat')).status).toBe(401);
    } finally {
      w.close();
    }
  });

  it('R-SESS-49 an always_ask sandbox tool runs on the worker only after the user allows it', async () => {
    const env = await selfHosted(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/confirm write {"path":"a.txt"}');
    const asked = await waitSession(t.emu, s.id, (x) => x.requires_action, 'requires_action');
    const callId = asked.stop_reason.event_ids[0];
    // The confirmation wait itself needs no worker, but the allowed call will.
    expect(await rowsOf(env, s.id)).toEqual([]);
    const w = new MiniWorker(env);
    try {
      expect(
        (
          await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
            body: { events: [{ type: 'user.tool_confirmation', data: { event_id: callId, result: 'allow' } }] },
          })
        ).status,
      ).toBe(202);
      await w.claim();
      await w.start();
      const use = await w.serveOne();
      expect(use).toMatchObject({ id: callId, data: { name: 'write', permission: 'ask' } });
      await idleAfter(w, callId);
      const types = w.stream!.events.map((f) => f.json.type);
      expect(types.indexOf('user.tool_confirmation')).toBeLessThan(types.indexOf('agent.tool_started'));
      expect(types.indexOf('agent.tool_started')).toBeLessThan(types.indexOf('user.tool_result'));
    } finally {
      w.close();
    }
  });

  it('R-SESS-49 R-SESS-50 a denied call, a custom tool and a platform tool need no worker: no row is queued', async () => {
    const env = await selfHosted(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool web_fetch {"url":"https://example.com"}');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'web_fetch answered by the platform');
    await send(t.emu, s.id, '/confirm bash {"command":"rm -rf /"}');
    const asked = await waitSession(t.emu, s.id, (x) => x.requires_action, 'requires_action');
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.tool_confirmation', data: { event_id: asked.stop_reason.event_ids[0], result: 'deny', deny_message: 'no' } }] },
    });
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'denied');
    await send(t.emu, s.id, '/custom lookup {"q":1}');
    const custom = await waitSession(t.emu, s.id, (x) => x.requires_action, 'custom call');
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.custom_tool_result', data: { event_id: custom.stop_reason.event_ids[0], content: [{ type: 'text', text: '42' }] } }] },
    });
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && !x.requires_action && x.stop_reason?.type === 'end_turn', 'custom answered');
    expect(await rowsOf(env, s.id)).toEqual([]);
  });

  it('R-WORK-39 R-WORK-40 R-WORK-12 an interrupt releases the row despite queued input; Continue queues work again', async () => {
    const env = await selfHosted(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool bash {"command":"sleep 100"}');
    const w = new MiniWorker(env);
    const next = new MiniWorker(env);
    try {
      await w.claim();
      await w.start();
      await w.stream!.waitFor((f) => f.json.type === 'agent.tool_started', 'tool started');
      await send(t.emu, s.id, '/tool read {"path":"x"}');
      expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt' }] } })).status).toBe(202);
      await waitSession(t.emu, s.id, (x) => x.interrupted && !x.stopping, 'interrupted');
      expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/events/pending`)).body.items).toHaveLength(1);
      // The cancelled call gets an error result, so no worker reading history runs it later.
      const cut = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`)).body.items.find((e: any) => e.type === 'agent.tool_result');
      expect(cut.data).toMatchObject({ is_error: true, tool_result: { content: [{ type: 'text', text: 'The tool call was cancelled by an interrupt.' }] } });
      // The release follows the wind-down: wait for it rather than race it.
      const released = await waitUntil(async () => {
        const row = (await call(t.emu, 'GET', `/v1/environments/${env.id}/work/${w.row.id}`)).body;
        return row.status === 'completed' ? row : undefined;
      }, 'the row released');
      expect(released.stopped_at).toEqual(expect.any(String));
      expect((await w.lease('heartbeat')).status).toBe(401);

      expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`)).status).toBe(200);
      const requeued = await waitUntil(async () => (await rowsOf(env, s.id)).find((r) => r.status === 'queued'), 'a re-queued row');
      expect(requeued.id).not.toBe(w.row.id);
      await next.claim();
      expect(next.row.id).toBe(requeued.id);
      await next.start();
      const use = await next.serveOne();
      expect(use.data.name).toBe('read');
      await idleAfter(next, use.id);
      expect((await next.lease('stop', { final_status: 'completed' })).body.status).toBe('completed');
    } finally {
      w.close();
      next.close();
    }
  });
});
