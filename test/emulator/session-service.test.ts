// The sessions' service apart from HTTP: the rules of create, update and delete called directly.
import { afterAll, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator/server';
import { createSessionService } from '../../src/emulator/sessions/service';
import { HttpError } from '../../src/emulator/errors';

// Not listening: nothing here goes over HTTP.
const emu = new Emulator({ modelStepMs: 1 });
const svc = createSessionService(emu);
afterAll(() => emu.close());

const agentId = emu.services.agents!.create({ name: 'service-test', model: 'scripted-1' }).id;

describe('the sessions service, without HTTP', () => {
  it('R-EVT-26 R-EVT-27 creates an idle session with its coordinator thread, and announces only real changes', () => {
    const s = svc.create({ agent_id: agentId, title: 'first' });
    expect(s).toMatchObject({ status: 'idle', agent_id: agentId, title: 'first', control_epoch: '0' });
    expect(svc.threads.values().filter((t) => t.session_id === s.id)).toHaveLength(1);
    const updates = () => svc.runtime(s).log.length;
    const before = updates();
    svc.update(s, { title: 'first' });
    expect(updates()).toBe(before);
    svc.update(s, { title: 'second' });
    expect(s.title).toBe('second');
    expect(updates()).toBe(before + 1);
  });

  it('rejects what the routes would reject, with the same errors', () => {
    expect(() => svc.create({ agent_id: 'agent_missing' })).toThrow(HttpError);
    const s = svc.create({ agent_id: agentId });
    expect(() => svc.update(s, { agent_overrides: { roster: [] } })).toThrow(/roster can be set only when the session is created/);
    expect(() => svc.threadOf(s, 'sthr_nope')).toThrow(/thread sthr_nope not found/);
  });

  it('deletes an idle session with its threads', () => {
    const s = svc.create({ agent_id: agentId });
    svc.remove(s);
    expect(svc.sessions.get(s.id)).toBeUndefined();
    expect(svc.threads.values().filter((t) => t.session_id === s.id)).toEqual([]);
  });
});
