import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
const awaiting = (x: any) => x.requires_action === true;

/** The one `error:` line of a failure. */
const errorLine = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('error: ')) ?? '';

describe('exit 13 on an awaited reply names the exact command that answers it', () => {
  it('sessions wait on a session awaiting a tool confirmation prints `svc sessions confirm SID EVENT --allow` with the real IDs, and no tool-result', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm write {"path":"a"}');
    const [eventId] = (await waitSession(t.emu, s.id, awaiting)).stop_reason.event_ids;
    // Settled before the wait: no stream, so the kind of wait comes from the history.
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(13);
    expect(errorLine(r.stderr)).toBe(
      `error: session ${s.id} is waiting for a reply: answer with \`svc sessions confirm ${s.id} ${eventId} --allow\` (or --deny)`,
    );
  });

  it('sessions wait through a turn that ends on a custom tool call prints `svc sessions tool-result SID EVENT`, and no confirm', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50 one two three four five six seven eight nine ten');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    // Running when the wait starts: the custom tool use is seen on the stream, as run sees it.
    const waiting = svc(['sessions', 'wait', s.id, '--timeout', '20s'], { env: env() });
    await send(t.emu, s.id, '/custom lookup {"q":"x"}');
    const r = await waiting;
    const [eventId] = (await waitSession(t.emu, s.id, awaiting)).stop_reason.event_ids;
    expect(r.code).toBe(13);
    expect(errorLine(r.stderr)).toBe(`error: session ${s.id} is waiting for a reply: answer with \`svc sessions tool-result ${s.id} ${eventId} --text "…"\``);
  });

  it('run that stops for a confirmation prints the confirm command with the new session and event IDs', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'runner', model: 'scripted-1' } })).body.id;
    const r = await svc(['run', '--agent', agent, '--message', '/confirm bash {"cmd":"ls"}'], { env: env() });
    expect(r.code).toBe(13);
    const sid = /session (sesn_\S+)/.exec(r.stderr)![1];
    const [eventId] = (await waitSession(t.emu, sid, awaiting)).stop_reason.event_ids;
    expect(errorLine(r.stderr)).toBe(
      `error: session ${sid} is waiting for a reply: answer with \`svc sessions confirm ${sid} ${eventId} --allow\` (or --deny)`,
    );
    expect(r.stderr).not.toMatch(/EVENT_ID|SID|tool-result/);
  });
});

describe('stop reasons of the real service that leave the turn unfinished (issue 13 shapes)', () => {
  /** A service whose session reads answer one stop reason (the emulator keeps the spec's readings). */
  let server: Server;
  let stopReason = '';
  const service = async (): Promise<string> => {
    server ??= createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'sesn_real', status: 'idle', stop_reason: { type: stopReason } }));
    });
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  for (const [type, line, hint] of [
    ['retries_exhausted', 'the service gave up after retrying', "hint: Check the turn's last events, then send the message again."],
    ['budget_reached', 'it reached its budget', 'hint: Raise the budget or restore quota, then send a new message.'],
    ['refusal', 'the model refused', 'hint: The model declined the request: rephrase it in a new message.'],
  ]) {
    it(`sessions wait on stop_reason ${type} exits 11 saying so, with its recovery as the hint`, async () => {
      stopReason = type;
      const r = await svc(['sessions', 'wait', 'sesn_real'], { env: { SVC_BASE_URL: await service(), SVC_API_KEY: 'sk_test' }, stderrTTY: true });
      expect(r.code).toBe(11);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: the session turn stopped unfinished: ${line} (stop_reason ${type}, session sesn_real)\n${hint}\n`);
    });
  }
});
