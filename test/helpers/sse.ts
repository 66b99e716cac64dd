import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { expect } from 'vitest';
import type { Emulator } from '../../src/emulator/server';
import { call } from './emulator';

/** Polls until `check` returns a value other than undefined/false (a condition wait, not a fixed sleep). */
export async function waitUntil<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what = 'condition', timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A session (with `extra` members) of a fresh agent of the scripted model, configured by `agent`. */
export async function agentSession(emu: Emulator, agent: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
  const a = await call(emu, 'POST', '/v1/agents', { body: { name: 'helper', model: 'scripted-1', ...agent } });
  expect(a.status).toBe(201);
  const s = await call(emu, 'POST', '/v1/sessions', { body: { agent_id: a.body.id, ...extra } });
  expect(s.status).toBe(201);
  return s.body;
}

/** A session of an agent with a sub-agent roster, so `/delegate` can start threads (R-CONF-27). */
export const createSession = (emu: Emulator, extra: Record<string, unknown> = {}): Promise<any> => agentSession(emu, { roster: [{ name: 'worker' }] }, extra);

export const message = (text: string) => ({ type: 'user.message', data: { content: [{ type: 'text', text }] } });

export async function send(emu: Emulator, sid: string, text: string, type?: 'next_turn' | 'steer'): Promise<string> {
  const r = await call(emu, 'POST', `/v1/sessions/${sid}/events`, { body: { ...(type ? { type } : {}), events: [message(text)] } });
  expect(r.status).toBe(202);
  return r.body.event_id;
}

export async function getSession(emu: Emulator, sid: string): Promise<any> {
  return (await call(emu, 'GET', `/v1/sessions/${sid}`)).body;
}

export const waitSession = (emu: Emulator, sid: string, pred: (s: any) => boolean, what = 'session state'): Promise<any> =>
  waitUntil(async () => {
    const s = await getSession(emu, sid);
    return pred(s) ? s : undefined;
  }, what);

/** The whole history of a session (or a thread path prefix), oldest first. */
export async function history(emu: Emulator, path: string): Promise<any[]> {
  const out: any[] = [];
  let token: string | null | undefined;
  do {
    const r = await call(emu, 'GET', `${path}/events?page_size=1000${token ? `&page_token=${token}` : ''}`);
    expect(r.status).toBe(200);
    out.push(...r.body.items);
    token = r.body.next_page_token;
  } while (token);
  return out;
}

/** Sends `text` as the session's `n`-th turn and returns the history once that turn is idle. */
export async function turn(emu: Emulator, sid: string, text: string, n: number): Promise<any[]> {
  await send(emu, sid, text);
  return waitIdleEvents(emu, sid, n);
}

/** Waits until the number of `session.status` idle events of the session reaches `n`. */
export const waitIdleEvents = (emu: Emulator, sid: string, n: number): Promise<any[]> =>
  waitUntil(async () => {
    const h = await history(emu, `/v1/sessions/${sid}`);
    return h.filter((e) => e.type === 'session.status' && e.data.status === 'idle').length >= n ? h : undefined;
  }, `${n} idle events`);

export interface Frame {
  id?: string;
  event?: string;
  data: string;
  json: any;
}

/** An SSE reader over fetch, parsed with eventsource-parser; keeps every frame and comment. */
export class SseClient {
  readonly frames: Frame[] = [];
  readonly comments: string[] = [];
  ended = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly body: string | undefined,
    private readonly abort: AbortController,
  ) {}

  static async open(emu: Emulator, path: string, headers: Record<string, string> = {}, token = emu.apiKey): Promise<SseClient> {
    const abort = new AbortController();
    const res = await fetch(emu.url + path, {
      headers: { authorization: `Bearer ${token}`, 'svc-api-version': '2026-09-01-beta', accept: 'text/event-stream', ...headers },
      signal: abort.signal,
    });
    if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const c = new SseClient(res.status, res.headers, await res.text(), abort);
      c.ended = true;
      return c;
    }
    const c = new SseClient(res.status, res.headers, undefined, abort);
    void c.read(res.body!);
    return c;
  }

  get json(): any {
    return this.body ? JSON.parse(this.body) : undefined;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const parser = createParser({
      onEvent: (m: EventSourceMessage) => this.frames.push({ id: m.id, event: m.event, data: m.data, json: JSON.parse(m.data) }),
      onComment: (c) => this.comments.push(c),
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by close()
    }
    this.ended = true;
  }

  /** Event frames only (not control, not error). */
  get events(): Frame[] {
    return this.frames.filter((f) => f.event !== 'control' && f.event !== 'error');
  }

  waitFor(pred: (f: Frame) => boolean, what = 'frame'): Promise<Frame> {
    return waitUntil(() => this.frames.find(pred), what);
  }

  waitEnded(): Promise<true> {
    return waitUntil(() => this.ended, 'stream end');
  }

  close(): void {
    this.abort.abort();
  }
}
