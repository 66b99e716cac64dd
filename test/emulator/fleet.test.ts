import { describe, expect, it } from 'vitest';
import { call } from '../helpers/emulator';
import { useFleet } from '../helpers/fleet';

const t = useFleet();

describe('the fleet seed', () => {
  it('creates a few dozen sessions in every state over two agents, each in the state it is filed under', async () => {
    const { sessions, agents } = t.fleet;
    expect(agents).toHaveLength(2);
    const all = Object.values(sessions).flat();
    expect(all.length).toBeGreaterThanOrEqual(24);
    const list = (await call(t.emu, 'GET', '/v1/sessions?page_size=1000&include_archived=true')).body.items as any[];
    const byId = new Map(list.map((s) => [s.id, s]));
    for (const id of sessions.running) expect(byId.get(id)).toMatchObject({ status: 'running' });
    for (const id of sessions.waiting) expect(byId.get(id)).toMatchObject({ status: 'idle', requires_action: true, stop_reason: { type: 'requires_action' } });
    for (const id of sessions.failed) expect(byId.get(id)).toMatchObject({ status: 'idle', stop_reason: { type: 'error' } });
    for (const id of sessions.idle) expect(byId.get(id)).toMatchObject({ status: 'idle', stop_reason: { type: 'end_turn' } });
    for (const id of sessions.archived) expect(byId.get(id)?.archived_at).toEqual(expect.any(String));
    expect(new Set(all.map((id) => byId.get(id).agent_id))).toEqual(new Set(agents.map((a) => a.id)));
  });

  it('archived sessions leave the default list; the working sessions have queued rows on the self-hosted environment', async () => {
    const shown = (await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items.map((s: { id: string }) => s.id);
    for (const id of t.fleet.sessions.archived) expect(shown).not.toContain(id);
    const rows = (await call(t.emu, 'GET', `/v1/environments/${t.fleet.environment.id}/work?page_size=1000`)).body.items as any[];
    for (const id of t.fleet.sessions.working) expect(rows.find((r) => r.session_id === id)).toMatchObject({ status: 'queued', generation: 1 });
  });
});
