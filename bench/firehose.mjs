/**
 * A stand-in for the service that serves one session's event stream from pre-rendered frames as fast as the
 * socket takes them: the control frame, EVENTS complete events, then a final `session.status` idle, all in one
 * `res.end`. A `cursor` (a frame id) resumes after that frame (R-STREAM-11). It also answers the two reads
 * `sessions tail --until idle` makes (the session, the newest event), so svc's own cost is what remains.
 *
 * Standalone: node bench/firehose.mjs [EVENTS]   prints SVC_BASE_URL, SVC_API_KEY and the session id.
 * As a module: `await startFirehose(events)` → { url, apiKey, sessionId, streamUrl, close() }.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const SESSION = 'sesn_firehose';
const API_KEY = 'sk_firehose';
const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** Frame i (1-based) as the emulator renders it; the last one is the idle status. */
function render(events) {
  const offsets = new Array(events + 2);
  const parts = [];
  let at = 0;
  const push = (s) => {
    parts.push(s);
    at += Buffer.byteLength(s);
  };
  const base = Date.parse('2026-11-23T12:00:00.000Z');
  let last;
  for (let i = 1; i <= events; i++) {
    offsets[i] = at;
    const done = i === events;
    const id = `sevt_${i.toString(16).padStart(16, '0')}`;
    const processed_at = new Date(base + i).toISOString();
    const data = done
      ? `{"id":"${id}","type":"session.status","processed_at":"${processed_at}","data":{"status":"idle","stop_reason":{"type":"end_turn"}}}`
      : `{"id":"${id}","type":"agent.message","processed_at":"${processed_at}","data":{"content":[{"type":"text","text":"firehose reply ${i} of ${events}"}]}}`;
    push(`id: ${i}\nevent: ${done ? 'session.status' : 'agent.message'}\ndata: ${data}\n\n`);
    last = data;
  }
  offsets[events + 1] = at;
  return { body: Buffer.from(parts.join('')), offsets, last };
}

export async function startFirehose(events) {
  const { body, offsets, last } = render(events);
  const session = JSON.stringify({
    id: SESSION,
    status: 'idle',
    agent_id: 'agent_firehose',
    agent_version: 1,
    created_at: '2026-11-23T12:00:00.000Z',
    updated_at: '2026-11-23T12:00:00.000Z',
    title: '',
    stop_reason: { type: 'end_turn' },
    metadata: {},
    resources: [],
    vault_ids: [],
    archived_at: null,
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.headers.authorization !== `Bearer ${API_KEY}`)
      return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'bad key' } });
    if (url.pathname === `/v1/sessions/${SESSION}/events/stream`) {
      const cursor = url.searchParams.get('cursor') ?? req.headers['last-event-id'] ?? '0';
      const pos = cursor === 'now' ? events : Number(cursor);
      if (!Number.isInteger(pos) || pos < 0 || pos > events)
        return json(res, 400, { type: 'error', error: { type: 'invalid_parameter_error', message: 'bad cursor', param: 'cursor' } });
      res.writeHead(200, HEADERS);
      res.end(Buffer.concat([Buffer.from(`id: ${pos}\nevent: control\ndata: {"cursor":"${pos}","reason":"resume"}\n\n`), body.subarray(offsets[pos + 1])]));
      return;
    }
    if (url.pathname === `/v1/sessions/${SESSION}/events`) return json(res, 200, { items: [JSON.parse(last)], stream_cursor: String(events) }, true);
    if (url.pathname === `/v1/sessions/${SESSION}`) return json(res, 200, session, true);
    json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `firehose serves ${SESSION} only` } });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    apiKey: API_KEY,
    sessionId: SESSION,
    bytes: body.length,
    streamUrl: `${url}/v1/sessions/${SESSION}/events/stream?cursor=0`,
    close: () => new Promise((r) => server.close(r)),
  };
}

function json(res, status, body, raw = false) {
  const text = typeof body === 'string' && raw ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const f = await startFirehose(Number(process.argv[2] ?? 200_000));
  process.stdout.write(`export SVC_BASE_URL=${f.url}\nexport SVC_API_KEY=${f.apiKey}\nsession ${f.sessionId} (${(f.bytes / 1e6).toFixed(1)} MB)\n`);
}
