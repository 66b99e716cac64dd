import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';
import { useReceiver } from '../listen/receiver';
import { startListen } from '../listen/helpers';
import { parseListen } from '../../src/commands/listen/options';

const t = useEmulator({ modelStepMs: 5 });
const collector = useReceiver();

describe('svc listen --otlp-endpoint', () => {
  it("posts each settled turn's spans live, in the session's trace, to the collector's /v1/traces", async () => {
    const s = await createSession(t.emu);
    const l = startListen(t.emu, [s.id, '--otlp-endpoint', collector.url]);
    try {
      await waitUntil(() => l.stderr().includes('listening to'), 'the listener');
      await send(t.emu, s.id, '/tool bash {"command":"ls"}');
      const spans = await waitUntil(
        () => {
          const all = collector.requests
            .filter((r) => r.headers['content-type'] === 'application/json' && r.json?.resourceSpans)
            .flatMap((r) => r.json.resourceSpans[0].scopeSpans[0].spans);
          return all.some((x: { name: string }) => x.name === 'turn 1') ? all : undefined;
        },
        'a turn posted',
        15_000,
      );
      const names = spans.map((x: { name: string }) => x.name);
      expect(names[0]).toBe('turn 1');
      expect(names).toContain('execute_tool bash');
      expect(names.some((n: string) => n.startsWith('chat'))).toBe(true);
      expect(new Set(spans.map((x: { traceId: string }) => x.traceId)).size).toBe(1);
    } finally {
      await l.stop();
    }
  });

  it('--events and --secret-file do not apply to it (exit 2 before anything is read)', () => {
    expect(() => parseListen([], { otlpEndpoint: 'http://127.0.0.1:1', events: 'agent.message' })).toThrow(/--events does not apply/);
    expect(() => parseListen([], { otlpEndpoint: 'http://127.0.0.1:1', secretFile: 'x' })).toThrow(/signs nothing/);
    expect(() => parseListen([], { otlpEndpoint: 'http://127.0.0.1:1', exec: 'cat' })).toThrow(/cannot be used together/);
  });
});
