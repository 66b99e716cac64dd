import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitSession, waitUntil } from '../helpers/sse';
import { selfHostedEnvironment } from '../worker/helpers';

// A long model step leaves room to interrupt a turn between its steps.
const t = useEmulator({ modelStepMs: 150 });

const unhandled: unknown[] = [];
const record = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', record));
beforeEach(() => void (unhandled.length = 0));
afterAll(() => void process.off('unhandledRejection', record));

/** Lets pending microtasks and one macrotask run, so a rejection nobody handles is reported. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the emulator leaves no promise rejection unhandled', () => {
  it('an interrupt while a worker-run tool call is between its steps leaves no rejection unhandled', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool bash {"cmd":"ls"}');
    // The row appears when the call starts awaiting its worker, one model step before agent.tool_started.
    await waitUntil(async () => {
      const rows = (await call(t.emu, 'GET', `/v1/environments/${env.id}/work?page_size=1000`)).body.items;
      return rows.some((r: { session_id: string }) => r.session_id === s.id);
    }, 'a work row for the session');
    const r = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
    expect(r.status).toBe(202);
    await waitSession(t.emu, s.id, (x) => x.interrupted === true && x.status === 'idle', 'interrupted');
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('stopping a busy row (the work queue cancelling its session) with waiters pending leaves no rejection unhandled', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool bash {"cmd":"ls"}');
    await waitUntil(async () => {
      const rows = (await call(t.emu, 'GET', `/v1/environments/${env.id}/work?page_size=1000`)).body.items;
      return rows.some((r: { session_id: string }) => r.session_id === s.id);
    }, 'a work row for the session');
    t.emu.services.sessions!.cancel(s.id);
    await waitSession(t.emu, s.id, (x) => x.interrupted === true && x.status === 'idle', 'cancelled');
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('closing the emulator with turns and child threads in flight leaves no rejection unhandled', async () => {
    const { startEmulator } = await import('../../src/emulator/server');
    const emu = await startEmulator({ port: 0, modelStepMs: 20 });
    const env = await selfHostedEnvironment(emu);
    const a = await createSession(emu, { environment_id: env.id });
    const b = await createSession(emu);
    const c = await createSession(emu);
    await send(emu, a.id, '/tool bash {"cmd":"ls"}');
    await send(emu, b.id, '/delegate 3 50');
    await send(emu, c.id, '/confirm bash {"cmd":"rm"}');
    await waitSession(emu, c.id, (x) => x.requires_action === true, 'a confirmation awaited');
    await emu.close();
    // Closing cancels every execution at once; their sleeping steps wake within a few model steps and must wind down quietly.
    const sessions = emu.services.sessions!;
    await waitUntil(() => ![a, b, c].some((s) => sessions.isBusy(s.id)), 'every execution wound down');
    await settle();
    expect(unhandled).toEqual([]);
  });
});
