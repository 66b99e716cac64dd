import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { useReceiver } from '../listen/receiver';
import { selfHostedEnvironment, toolSession, workdir } from '../worker/helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
const collector = useReceiver();

describe('svc worker run --otlp-endpoint', () => {
  it("puts a span for each tool it runs in the session's trace, under the hosted call's span of sessions trace", async () => {
    const env = await selfHostedEnvironment(t.emu);
    const workerEnv = { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: env.key, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
    const running = svc(['worker', 'run', '--environment', env.id, '--workdir', workdir(), '--once', '--otlp-endpoint', collector.url], { env: workerEnv });
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo traced"}');
    const r = await running;
    expect(r.code).toBe(0);
    const posted = collector.requests.filter((x) => x.json?.resourceSpans).flatMap((x) => x.json.resourceSpans[0].scopeSpans[0].spans);
    expect(posted).toHaveLength(1);
    const trace = await svc(['sessions', 'trace', sid, '-o', 'json'], { env: emuEnv(t.emu) });
    expect(trace.code).toBe(0);
    const spans = JSON.parse(trace.stdout);
    const hosted = spans.find((s: { name: string }) => s.name === 'execute_tool bash');
    const otlp = JSON.parse((await svc(['sessions', 'trace', sid, '-o', 'otlp'], { env: emuEnv(t.emu) })).stdout);
    expect(posted[0]).toMatchObject({ name: 'execute_tool bash', traceId: otlp.resourceSpans[0].scopeSpans[0].spans[0].traceId, parentSpanId: hosted.span_id });
    const attrs = Object.fromEntries(posted[0].attributes.map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]));
    expect(attrs).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'bash', 'svc.tool.outcome': 'ok' });
  });

  it('--otlp-endpoint with --on-work is exit 2: the tools run in CMD', async () => {
    const r = await svc(['worker', 'run', '--environment', 'env_1', '--on-work', process.execPath, '--otlp-endpoint', 'http://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--otlp-endpoint traces the built-in tools/);
  });
});
