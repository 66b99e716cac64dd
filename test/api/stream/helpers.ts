import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../../src/cli/main';
import type { Io } from '../../../src/runtime/io';
import { tempConfigDir } from '../../helpers/cli';
import { ApiClient } from '../../../src/api/client';
import { follow } from '../../../src/api/stream/resumable';
import type { FollowOptions, StreamItem } from '../../../src/api/stream/types';
import type { Emulator } from '../../../src/emulator/server';
import { call } from '../../helpers/emulator';
import { waitUntil } from '../../helpers/sse';

export function client(emu: { url: string; apiKey: string }, maxRetries = 3): ApiClient {
  return new ApiClient({ baseUrl: emu.url, credential: emu.apiKey, apiVersion: '2026-09-01-beta', userAgent: 'svc-test', maxRetries, sleep: async () => {} });
}

/** Runs follow() in the background and records every item; `stop()` aborts it and waits for the end. */
export function collect(emu: { url: string; apiKey: string }, opts: Omit<FollowOptions, 'client' | 'signal'> & { client?: ApiClient }) {
  const abort = new AbortController();
  const items: StreamItem[] = [];
  const state: { error?: unknown; done: boolean } = { done: false };
  const finished = (async () => {
    try {
      for await (const it of follow({ client: client(emu), sleep: async () => {}, ...opts, signal: abort.signal })) items.push(it);
    } catch (e) {
      state.error = e;
    } finally {
      state.done = true;
    }
  })();
  return {
    items,
    state,
    events: () => items.flatMap((i) => (i.kind === 'event' ? [i.event] : [])),
    deltas: () => items.flatMap((i) => (i.kind === 'delta' ? [i.delta] : [])),
    states: () => items.flatMap((i) => (i.kind === 'connection' ? [i.state] : [])),
    waitFor: (pred: (items: StreamItem[]) => boolean, what = 'items') => waitUntil(() => pred(items) || state.done, what),
    async stop() {
      abort.abort();
      await finished;
    },
    finished,
  };
}

export const isIdle = (i: StreamItem) => i.kind === 'event' && i.event.type === 'session.status' && (i.event.data as any)?.status === 'idle';
export const idleCount = (items: StreamItem[]) => items.filter(isIdle).length;

export async function setFaults(emu: Emulator, faults: Record<string, number | string>): Promise<void> {
  const r = await call(emu, 'POST', '/_emulator/faults', { body: faults });
  if (r.status !== 200) throw new Error(`faults: ${JSON.stringify(r.body)}`);
}

export async function stats(emu: Emulator): Promise<Record<string, number>> {
  return (await call(emu, 'GET', '/_emulator/stats')).body;
}

/** The emulator's open event streams, seen from its HTTP server: a stream counts once its headers (and control frame) went out. */
export function trackStreams(emu: Emulator): (sessionId: string, n?: number) => boolean {
  const open = new Set<{ url: string; res: ServerResponse }>();
  const server = (emu as unknown as { server: Server }).server;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.includes('/events/stream')) return;
    const entry = { url: req.url, res };
    open.add(entry);
    res.once('close', () => open.delete(entry));
  });
  return (sessionId, n = 1) => [...open].filter((e) => e.url.includes(sessionId) && e.res.headersSent).length >= n;
}

/** Runs the CLI in-process in the background with stdout readable while it runs; `stop()` is Ctrl-C. */
export function background(args: string[], env: Record<string, string | undefined>, opts: { stdoutTTY?: boolean; sleep?: (ms: number) => Promise<void> } = {}) {
  const abort = new AbortController();
  const stdout = new Capture();
  const stderr = new Capture();
  stdout.isTTY = opts.stdoutTTY;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.end('');
  const io: Io = {
    stdin,
    stdout,
    stderr,
    env: { SVC_CONFIG_DIR: tempConfigDir(), ...env },
    cwd: process.cwd(),
    sleep: opts.sleep ?? (async () => {}),
    signal: abort.signal,
  };
  const run = main(args, io).then((code) => ({ code, stdout: stdout.text, stderr: stderr.text }));
  return { run, stdout, stderr, stop: () => abort.abort() };
}

class Capture extends Writable {
  text = '';
  isTTY?: boolean;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

/** One SSE frame as a server writes it; without `id` when `id` is undefined. */
export const sseFrame = (id: string | undefined, event: string, data: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;

/** The n-th event of a scripted session: ids `sevt_n`, one second apart, in history order. */
export const scriptedEvent = (n: number, type = 'agent.message', data: Record<string, unknown> = { n }) => ({
  id: `sevt_${n}`,
  type,
  processed_at: new Date(Date.UTC(2026, 10, 23, 12, 0, n)).toISOString(),
  data,
});

export interface Script {
  /** The history at the time of the read, oldest first (one page each way). */
  history: () => object[];
  /** The asc page's stream_cursor. */
  streamCursor?: string;
  /** The n-th stream request (0-based) with this cursor: frames (`end` closes the response after them) or a 400 expired cursor. */
  stream: (cursor: string, n: number) => { frames: string; end?: boolean } | 'expired' | 'unavailable';
  status?: string;
}

/**
 * A stand-in service serving one session exactly as a test scripts it, so each seam can be fed the overlap the spec
 * allows there. Answers the session, its history (asc with stream_cursor, desc) and its stream.
 */
export async function scriptedServer(script: Script) {
  const open = new Set<ServerResponse>();
  const cursors: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.endsWith('/events/stream')) {
      const cursor = url.searchParams.get('cursor') ?? '0';
      const r = script.stream(cursor, cursors.length);
      cursors.push(cursor);
      if (r === 'expired') return json(400, { type: 'error', error: { type: 'invalid_parameter_error', message: 'the cursor has expired', param: 'cursor' } });
      if (r === 'unavailable') return json(503, { type: 'error', error: { type: 'server_error', message: 'down for a while' } });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (r.end) return res.end(r.frames);
      res.write(r.frames);
      open.add(res);
      res.once('close', () => open.delete(res));
      return;
    }
    if (url.pathname.endsWith('/events')) {
      const items = script.history();
      if (url.searchParams.get('order') === 'desc') return json(200, { items: [...items].reverse().slice(0, Number(url.searchParams.get('page_size') ?? 50)) });
      return json(200, { items, ...(script.streamCursor === undefined ? {} : { stream_cursor: script.streamCursor }) });
    }
    json(200, { id: 'sesn_scripted', status: script.status ?? 'idle', stop_reason: { type: 'end_turn' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'sk_scripted',
    /** The cursor of every stream request so far. */
    cursors,
    close: () => {
      for (const res of open) res.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
