import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('sessions create takes names where it takes IDs', () => {
  it('--agent NAME and --environment NAME create the session with their IDs', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'by-name', model: 'scripted-1' } })).body;
    const env = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'named-env' } })).body;
    const r = await svc(['sessions', 'create', '--agent', 'by-name', '--environment', 'named-env', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agent_id: agent.id, environment_id: env.id });
  });

  it('an ID is used as it is, and a name nothing has keeps the not-found answer (exit 6), with no session created', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'by-id', model: 'scripted-1' } })).body;
    const r = await svc(['sessions', 'create', '--agent', agent.id, '-q'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/sessions/${r.stdout.trim()}`)).body.agent_id).toBe(agent.id);
    const before = (await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items.length;
    const missing = await svc(['sessions', 'create', '--agent', 'no-such-agent'], { env: emuEnv(t.emu) });
    expect(missing.code).toBe(6);
    expect((await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items.length).toBe(before);
  });
});

describe('triggers create and update take an agent by name too', () => {
  it('--agent NAME on create and update sends the agent ID', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'trigger-agent', model: 'scripted-1' } })).body;
    const b = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'trigger-agent-2', model: 'scripted-1' } })).body;
    const r = await svc(['triggers', 'create', '--name', 'tn', '--agent', 'trigger-agent', '--session-mode', 'new_session', '--message', 'go', '-o', 'json'], {
      env: emuEnv(t.emu),
    });
    expect(r.code).toBe(0);
    const trigger = JSON.parse(r.stdout);
    expect(trigger.agent_id).toBe(a.id);
    const u = await svc(['triggers', 'update', trigger.id, '--agent', 'trigger-agent-2', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout).agent_id).toBe(b.id);
  });
});
