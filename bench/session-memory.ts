/**
 * Memory of a 1,000,000-event session in the emulator's session runtime: heap and external memory per event against the
 * bytes of the events' JSON, then the heap while 200 live subscribers follow and one replays everything.
 * Run: npx esbuild bench/session-memory.ts --bundle --platform=node --format=esm --outfile=/tmp/session-memory.mjs && node --expose-gc /tmp/session-memory.mjs
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Faults } from '../src/emulator/faults';
import { SessionRuntime, type SessionRec, type ThreadRec } from '../src/emulator/sessions/runtime';
import { Collection } from '../src/emulator/store';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const SUBSCRIBERS = 200;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
/** Heap plus external memory (Buffers): the log keeps its JSON in Buffers. */
const heap = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

const sessions = new Collection<SessionRec>('sesn', 'session');
const threads = new Collection<ThreadRec>('sthr', 'thread');
const rec = sessions.insert({ status: 'idle', control_epoch: '0', agent_overrides: {}, resources: [] } as unknown as SessionRec);
const coordinator = threads.insert({ session_id: rec.id, parent_thread_id: null } as unknown as ThreadRec);
const rt = new SessionRuntime(rec, coordinator, {
  sessions,
  threads,
  services: {},
  faults: new Faults(),
  heartbeatMs: 30_000,
  stepMs: 1,
  model: 'bench',
  roster: [],
  mcpServers: [],
});

const base = heap();
let jsonBytes = 0;
const started = Date.now();
for (let i = 0; i < EVENTS; i++) {
  const kind = i % 4;
  if (kind === 0) rt.emit('agent.model_started', { model: 'bench' });
  else if (kind === 1) rt.emit('agent.message', { content: [{ type: 'text', text: `reply number ${i} of the memory benchmark` }] });
  else if (kind === 2) rt.emit('agent.message_started');
  else rt.emit('session.status', { status: 'idle', stop_reason: { type: 'end_turn' } });
}
for (let i = 0; i < rt.log.length; i++) jsonBytes += rt.log.jsonAt(i).length;
const filled = heap();
console.log(`events: ${rt.log.length} appended in ${Date.now() - started} ms`);
console.log(`event JSON (the history itself): ${mib(jsonBytes)}, ${(jsonBytes / EVENTS).toFixed(0)} B/event`);
console.log(
  `memory growth (heap + external): ${mib(filled - base)}, ${((filled - base) / EVENTS).toFixed(0)} B/event, ratio memory/JSON ${((filled - base) / jsonBytes).toFixed(2)}`,
);

const server = createServer((req, res) => {
  const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? undefined;
  rt.hub.open({ res, view: {}, cursor, includeDeltas: false, requestId: 'bench' });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

/** Reads a stream until `frames` event frames arrived; returns the bytes read. */
async function follow(query: string, frames: number): Promise<number> {
  const res = await fetch(url + query);
  let bytes = 0;
  let seen = -1;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    seen += decoder.decode(chunk, { stream: true }).split('\n\n').length - 1;
    if (seen >= frames) break;
  }
  return bytes;
}

const live = Array.from({ length: SUBSCRIBERS }, () => follow('?cursor=now', 1000));
await new Promise((r) => setTimeout(r, 200));
const beforeLive = heap();
for (let i = 0; i < 1000; i++) rt.emit('agent.message', { content: [{ type: 'text', text: `live ${i}` }] });
const liveBytes = await Promise.all(live);
console.log(`${SUBSCRIBERS} live subscribers x 1000 events: ${mib(liveBytes.reduce((a, b) => a + b, 0))} sent, memory change ${mib(heap() - beforeLive)}`);

let peak = 0;
// Sampled after a GC: the peak of what the replay retains, not of its short-lived garbage.
const sampler = setInterval(() => (peak = Math.max(peak, heap())), 250);
const beforeReplay = heap();
const replayStart = Date.now();
const replayBytes = await follow('?cursor=0', rt.log.length);
clearInterval(sampler);
console.log(
  `one full replay: ${mib(replayBytes)} in ${Date.now() - replayStart} ms, peak memory above the filled log ${mib(Math.max(0, peak - beforeReplay))}`,
);
console.log(`rss: ${mib(process.memoryUsage().rss)}`);
server.closeAllConnections();
server.close();
rt.close();
