// Rules proved here: R-ERR-21 (client side) — an error inside a resource is data, not a failed command.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('errors embedded in resources', () => {
  it('R-ERR-21 svc triggers run prints a failed run with its TriggerError and exits 0', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'archived-later', model: 'm' } })).body.id;
    const message = { type: 'user.message', data: { content: [{ type: 'text', text: 'go' }] } };
    const trigger = (
      await call(t.emu, 'POST', '/v1/triggers', { body: { name: 'fails', agent_id: agent, session_mode: 'new_session', initial_events: [message] } })
    ).body;
    await call(t.emu, 'POST', `/v1/agents/${agent}/archive`);
    const r = await svc(['triggers', 'run', trigger.id, '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ trigger_id: trigger.id, status: 'failed', error: { type: 'fire_failed' } });
    const listed = await svc(['triggers', 'runs', trigger.id, '-o', 'json'], { env: emuEnv(t.emu) });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)[0].error.type).toBe('fire_failed');
  });
});
