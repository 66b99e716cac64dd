import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, ndjson, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agent, append, session } from '../stats/history';
import { CHILD, GRANDCHILD, tracedHistory } from './history';
import { TEST_CA_FILE, tlsFront } from '../helpers/tls-front';
import { startProxy } from '../helpers/proxy';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

async function traced(name: string): Promise<string> {
  const s = await session(t.emu, await agent(t.emu, name));
  await append(t.emu, s, tracedHistory(), { status: 'idle', stop_reason: { type: 'interrupted' }, interrupted: true });
  return s;
}

type SpanJson = {
  span_id: string;
  parent_span_id: string | null;
  kind: string;
  name: string;
  thread_id: string | null;
  duration_ms: number;
  status: string;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
};

async function spansOf(s: string, extra: string[] = []): Promise<SpanJson[]> {
  const r = await run(['sessions', 'trace', s, '-o', 'json', ...extra]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

// The OpenTelemetry protobuf definitions (otlp-transformer's generated root, protobufjs).
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root');
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const ID_KEYS = new Set(['traceId', 'spanId', 'parentSpanId']);
/** Hex IDs (OTLP/JSON) as base64 (protobufjs's JSON mapping of bytes), and back. */
const ids = (v: unknown, to: 'b64' | 'hex'): unknown =>
  Array.isArray(v)
    ? v.map((x) => ids(x, to))
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v).map(([k, x]) => [
            k,
            ID_KEYS.has(k) && typeof x === 'string' ? Buffer.from(x, to === 'b64' ? 'hex' : 'base64').toString(to === 'b64' ? 'base64' : 'hex') : ids(x, to),
          ]),
        )
      : v;
/** Without proto3 defaults (0, '', empty lists and messages): what a round trip through protobuf leaves out. */
const bare = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(bare);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const b = bare(x);
    if (b === 0 || b === '' || (Array.isArray(b) && b.length === 0) || (b && typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 0))
      continue;
    out[k] = b;
  }
  return out;
};
/** The request through ExportTraceServiceRequest and back: unknown or mistyped members do not survive it. */
function throughProtobuf(json: unknown): unknown {
  const msg = Request.fromObject(ids(json, 'b64'));
  expect(Request.verify(msg)).toBeNull();
  const back = Request.toObject(Request.decode(Request.encode(msg).finish()), { longs: String, enums: Number, bytes: String });
  return ids(back, 'hex');
}

describe('svc sessions trace', () => {
  it('folds a hand-built history into turns, model requests, tool calls, human waits and nested threads', async () => {
    const s = await traced('trace-json');
    const spans = await spansOf(s);
    const byName = (name: string) => spans.filter((x) => x.name === name);
    const one = (name: string) => {
      expect(byName(name)).toHaveLength(1);
      return byName(name)[0];
    };
    expect(spans.map((x) => `${x.kind}:${x.name}`)).toEqual([
      'turn:turn 1',
      'model:chat scripted-1',
      'tool:execute_tool bash',
      'model:chat scripted-1',
      'tool:execute_tool delegate',
      'thread:thread writer',
      'model:chat scripted-1',
      'tool:execute_tool spawn',
      'thread:thread checker',
      'model:chat scripted-1',
      'model:chat scripted-1',
      'tool:execute_tool deploy',
      'wait:await confirmation',
      'turn:turn 2',
      'model:chat scripted-1',
      'tool:execute_tool lookup',
      'wait:await custom_tool_result',
      'model:chat scripted-1',
    ]);
    const [turn1, turn2] = byName('turn 1').concat(byName('turn 2'));
    // A turn runs to a stop that is not requires_action: the human wait is inside it.
    expect(turn1).toMatchObject({ duration_ms: 16_000, status: 'error', attributes: { 'svc.stop_reason': 'error', 'gen_ai.operation.name': 'invoke_agent' } });
    expect(turn1.events.map((e) => e.name)).toEqual(['requires_action', 'session.error']);
    expect(turn1.events[1].attributes).toEqual({ 'error.type': 'model_error', 'svc.error.message': 'the model stopped answering' });
    expect(turn2.events.map((e) => e.name)).toEqual(['requires_action', 'interrupt']);
    expect(turn2.attributes['svc.stop_reason']).toBe('interrupted');
    // Time to first token: agent.model_started to the request's first fragment.
    expect(spans[1]).toMatchObject({
      duration_ms: 1000,
      attributes: { 'svc.ttft_ms': 300, 'gen_ai.request.model': 'scripted-1', 'gen_ai.operation.name': 'chat' },
    });
    expect(one('execute_tool bash')).toMatchObject({
      duration_ms: 1000,
      status: 'ok',
      parent_span_id: turn1.span_id,
      attributes: { 'gen_ai.tool.name': 'bash', 'svc.tool.outcome': 'ok', 'svc.tool.started_at_ms': 500 },
    });
    // Child threads nest under the call that started them; the grandchild under its parent's call.
    const delegate = one('execute_tool delegate');
    const writer = one('thread writer');
    expect(writer).toMatchObject({ parent_span_id: delegate.span_id, thread_id: CHILD, duration_ms: 2500 });
    const spawnCall = one('execute_tool spawn');
    expect(spawnCall.parent_span_id).toBe(writer.span_id);
    expect(one('thread checker')).toMatchObject({ parent_span_id: spawnCall.span_id, thread_id: GRANDCHILD, duration_ms: 500 });
    expect(spans[6]).toMatchObject({ parent_span_id: writer.span_id, attributes: { 'svc.ttft_ms': 200 } });
    // The confirmation: its own span under the call, 5 s of a person's time.
    const deploy = one('execute_tool deploy');
    expect(deploy).toMatchObject({ status: 'error', duration_ms: 6000, attributes: { 'svc.tool.outcome': 'error' } });
    expect(one('await confirmation')).toMatchObject({
      parent_span_id: deploy.span_id,
      duration_ms: 5000,
      attributes: { 'svc.wait.kind': 'confirmation', 'svc.wait.result': 'allow' },
    });
    expect(one('await custom_tool_result')).toMatchObject({ duration_ms: 2000, attributes: { 'svc.wait.kind': 'custom_tool_result' } });
    // Span IDs are stable: the same history traced again gives the same IDs.
    expect((await spansOf(s)).map((x) => x.span_id)).toEqual(spans.map((x) => x.span_id));
  });

  it("--thread traces one thread from its own history: the coordinator's leaves the child threads out", async () => {
    const s = await traced('trace-thread');
    const threads = await call(t.emu, 'GET', `/v1/sessions/${s}/threads`);
    const coordinator = threads.body.items.find((x: { parent_thread_id: unknown }) => x.parent_thread_id === null).id;
    const spans = await spansOf(s, ['--thread', coordinator]);
    expect(spans.filter((x) => x.kind === 'thread')).toEqual([]);
    expect(spans.map((x) => x.name)).not.toContain('execute_tool spawn');
    expect(spans.filter((x) => x.kind === 'turn')).toHaveLength(2);
    expect(spans[0]).toMatchObject({ duration_ms: 16_000, thread_id: coordinator, attributes: { 'svc.thread_id': coordinator } });
  });

  it('piped: the tree as text, turn by turn; -o ndjson: one span a line', async () => {
    const s = await traced('trace-tree');
    const r = await run(['sessions', 'trace', s]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('turn 1  16.0s  stop error, error model_error\n  chat scripted-1  1.00s  ttft 300ms\n');
    expect(r.stdout).toContain('    thread writer  2.50s\n');
    expect(r.stdout).toContain('        thread checker  500ms\n');
    expect(r.stdout).toContain('    await confirmation  5.00s  allow\n');
    expect(r.stdout).toContain('turn 2  6.00s  stop interrupted, interrupted\n');
    const lines = ndjson((await run(['sessions', 'trace', s, '-o', 'ndjson'])).stdout);
    expect(lines).toHaveLength(18);
  });

  it('on a terminal: a waterfall on one time axis that fits the width, the longest spans named', async () => {
    const s = await traced('trace-tty');
    for (const columns of [80, 120]) {
      const r = await run(['sessions', 'trace', s], { stdoutTTY: true, columns, env: { NO_COLOR: '1', SVC_PAGER: 'cat' } });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
      expect(lines.find((l) => l.startsWith('    await confirmation'))).toMatch(/5\.00s +░+/);
      expect(r.stdout).toContain('longest: execute_tool deploy 6.00s, await confirmation 5.00s, execute_tool de');
      // One axis for every row: the second turn's bars start where its time is, right of the first's.
      const col = (prefix: string) => lines.find((l) => l.startsWith(prefix))!.search(/[█░]/);
      expect(col('turn 2')).toBeGreaterThan(col('  execute_tool deploy'));
    }
  });

  it('-o otlp: an ExportTraceServiceRequest the OpenTelemetry protobuf definitions read whole, GenAI conventions, trace ID from the session ID', async () => {
    const s = await traced('trace-otlp');
    const r = await run(['sessions', 'trace', s, '-o', 'otlp']);
    expect(r.code).toBe(0);
    const req = JSON.parse(r.stdout);
    expect(bare(throughProtobuf(req))).toEqual(bare(req));
    const spans = req.resourceSpans[0].scopeSpans[0].spans;
    expect(spans).toHaveLength(18);
    const traceId = createHash('sha256').update(s).digest('hex').slice(0, 32);
    for (const x of spans) expect(x.traceId).toBe(traceId);
    const attrs = (x: { attributes: Array<{ key: string; value: Record<string, unknown> }> }) =>
      Object.fromEntries(x.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    const tool = spans.find((x: { name: string }) => x.name === 'execute_tool bash');
    expect(attrs(tool)).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'bash', 'gen_ai.tool.call.id': 'call_bash' });
    const chat = spans.find((x: { name: string }) => x.name === 'chat scripted-1');
    expect(attrs(chat)).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted-1', 'svc.ttft_ms': '300' });
    expect(attrs(spans[0])).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'trace-otlp' });
    expect(attrs(req.resourceSpans[0].resource)).toMatchObject({ 'gen_ai.conversation.id': s });
    expect(spans[0].status).toEqual({ code: 2, message: 'model_error' });
    expect(spans[0].events.map((e: { name: string }) => e.name)).toEqual(['requires_action', 'session.error']);
    expect(BigInt(spans[0].endTimeUnixNano) - BigInt(spans[0].startTimeUnixNano)).toBe(16_000_000_000n);
  });

  describe('--otlp-endpoint: posted to a collector (a local OTLP/HTTP receiver)', () => {
    const got: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
    let status = 200;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        got.push({ url: req.url!, headers: req.headers, body });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    let base = '';
    beforeAll(async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('the base URL gets /v1/traces; OTEL_EXPORTER_OTLP_HEADERS are sent, URL-decoded; stdout is the trace ID', async () => {
      const s = await traced('trace-post');
      got.length = 0;
      const r = await run(['sessions', 'trace', s, '--otlp-endpoint', base + '/'], {
        env: { OTEL_EXPORTER_OTLP_HEADERS: 'x-team=infra%20ops, authorization=Bearer%20k' },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(createHash('sha256').update(s).digest('hex').slice(0, 32) + '\n');
      expect(r.stderr).toMatch(/^sent 18 spans of trace [0-9a-f]{32} to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\n$/);
      expect(got).toHaveLength(1);
      expect(got[0].url).toBe('/v1/traces');
      expect(got[0].headers['content-type']).toBe('application/json');
      expect(got[0].headers['x-team']).toBe('infra ops');
      expect(got[0].headers.authorization).toBe('Bearer k');
      const req = JSON.parse(got[0].body);
      expect(bare(throughProtobuf(req))).toEqual(bare(req));
      expect(req.resourceSpans[0].scopeSpans[0].spans).toHaveLength(18);
    });

    it('the flag alone reads OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as a full URL, else OTEL_EXPORTER_OTLP_ENDPOINT as a base', async () => {
      const s = await traced('trace-env');
      got.length = 0;
      const full = await run(['sessions', 'trace', s, '--otlp-endpoint'], {
        env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${base}/custom/path`, OTEL_EXPORTER_OTLP_ENDPOINT: `${base}/ignored` },
      });
      expect(full.code).toBe(0);
      const baseOnly = await run(['sessions', 'trace', s, '--otlp-endpoint'], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${base}/otel` } });
      expect(baseOnly.code).toBe(0);
      expect(got.map((g) => g.url)).toEqual(['/custom/path', '/otel/v1/traces']);
      const before = await requestCount(t.emu);
      const none = await run(['sessions', 'trace', s, '--otlp-endpoint']);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/--otlp-endpoint takes the collector's URL, or reads OTEL_EXPORTER_OTLP_ENDPOINT/);
      expect(await requestCount(t.emu)).toBe(before);
    });

    it('a collector that refuses: one line, exit 9', async () => {
      const s = await traced('trace-refused');
      status = 400;
      const r = await run(['sessions', 'trace', s, '--otlp-endpoint', base]);
      status = 200;
      expect(r.code).toBe(9);
      expect(r.stderr).toMatch(/^error: cannot send spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: the collector answered 400/);
    });

    it('a collector over HTTPS is trusted through SVC_CA_FILE, as the service is; without it, one line, exit 10', async () => {
      const front = await tlsFront(base);
      try {
        const s = await traced('trace-tls');
        got.length = 0;
        const untrusted = await run(['sessions', 'trace', s, '--otlp-endpoint', front.url]);
        expect(untrusted.code).toBe(10);
        expect(untrusted.stderr).toMatch(/^error: cannot send spans to https:\/\/127\.0\.0\.1:\d+\/v1\/traces: no answer/);
        const trusted = await run(['sessions', 'trace', s, '--otlp-endpoint', front.url], { env: { SVC_CA_FILE: TEST_CA_FILE } });
        expect(trusted.stderr).toMatch(/^sent 18 spans of trace [0-9a-f]{32} to https:/);
        expect(trusted.code).toBe(0);
        expect(got.map((g) => g.url)).toEqual(['/v1/traces']);
      } finally {
        await front.close();
      }
    });

    it('a collector over HTTPS is reached through HTTPS_PROXY (a CONNECT tunnel), the service past it by NO_PROXY', async () => {
      const front = await tlsFront(base);
      const proxy = await startProxy();
      try {
        const s = await traced('trace-proxy');
        got.length = 0;
        const emu = new URL(t.emu.url);
        const r = await run(['sessions', 'trace', s, '--otlp-endpoint', front.url], {
          env: { SVC_CA_FILE: TEST_CA_FILE, HTTPS_PROXY: proxy.url, NO_PROXY: `${emu.hostname}:${emu.port}` },
        });
        expect(r.stderr).toMatch(/^sent 18 spans of trace [0-9a-f]{32} to https:/);
        expect(r.code).toBe(0);
        expect(got.map((g) => g.url)).toEqual(['/v1/traces']);
        expect(proxy.seen).toEqual([`CONNECT ${new URL(front.url).host}`]);
      } finally {
        await proxy.close();
        await front.close();
      }
    });
  });

  it('an unknown session is exit 6; -o id is exit 2', async () => {
    expect((await run(['sessions', 'trace', 'sesn_nope'])).code).toBe(6);
    const r = await run(['sessions', 'trace', 'sesn_x', '-o', 'id']);
    expect(r.code).toBe(2);
  });
});
