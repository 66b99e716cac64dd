// Rules proved here: R-TRIG-2, R-TRIG-3, R-TRIG-6, R-TRIG-8, R-TRIG-9, R-TRIG-11, R-TRIG-19
import { describe, expect, it } from 'vitest';
import { RUN_COLUMNS } from '../../src/commands/triggers/columns';
import { renderTable } from '../../src/output/table';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const requests = (): Promise<number> => requestCount(t.emu);

async function agent(name: string): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } })).body.id;
}

async function trigger(agentId: string, mode: string, extra: string[] = []): Promise<any> {
  const r = await svc(['triggers', 'create', '--name', `t-${mode}`, '--agent', agentId, '--session-mode', mode, '--message', 'hello', ...extra], {
    env: env(),
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('svc triggers', () => {
  it('creates a trigger from flags: schedule from --cron/--timezone, initial_events from --message', async () => {
    const a = await agent('scheduled');
    const created = await trigger(a, 'new_session', ['--cron', '0 9 * * 1-5', '--timezone', 'Europe/Paris', '--message', 'second']);
    const held = (await call(t.emu, 'GET', `/v1/triggers/${created.id}`)).body;
    expect(held).toMatchObject({
      agent_id: a,
      session_mode: 'new_session',
      status: 'active',
      schedule: { type: 'cron', expression: '0 9 * * 1-5', timezone: 'Europe/Paris' },
    });
    expect(held.initial_events).toEqual([
      { type: 'user.message', data: { content: [{ type: 'text', text: 'hello' }] } },
      { type: 'user.message', data: { content: [{ type: 'text', text: 'second' }] } },
    ]);
  });

  it('R-TRIG-19 lists with --agent filtering by owning agent, as a table on a TTY', async () => {
    const a = await agent('mine');
    const b = await agent('other');
    const mine = await trigger(a, 'new_session');
    const other = await trigger(b, 'new_session');
    const ids = JSON.parse((await svc(['triggers', 'list', '--agent', a, '--all'], { env: env() })).stdout).map((x: { id: string }) => x.id);
    expect(ids).toEqual([mine.id]);
    expect(ids).not.toContain(other.id);
    const table = await svc(['triggers', 'list', '--agent', a], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+MODE\s+STATUS\s+SCHEDULE\s+AGENT\s+UPDATED$/);
    expect(table.stdout).toMatch(new RegExp(`${mine.id}\\s+t-new_session\\s+new_session\\s+active`));
  });

  it('R-TRIG-8 runs a trigger by hand: a manual TriggerRun with a session, listed by runs', async () => {
    const tr = await trigger(await agent('runner'), 'new_session');
    const r = await svc(['triggers', 'run', tr.id], { env: env() });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run).toMatchObject({ trigger_id: tr.id, context: { type: 'manual' } });
    expect((await call(t.emu, 'GET', `/v1/sessions/${run.session_id}`)).status).toBe(200);
    const runs = JSON.parse((await svc(['triggers', 'runs', tr.id], { env: env() })).stdout);
    expect(runs.map((x: { id: string }) => x.id)).toEqual([run.id]);
  });

  it('R-TRIG-9 R-TRIG-11 shows a system run context and any error type as they come', () => {
    const out = renderTable(
      [{ id: 'trun_1', context: { type: 'system' }, session_id: null, error: { type: 'brand_new_reason', message: 'x' }, created_at: 'now' }],
      RUN_COLUMNS,
      { header: (s) => s },
    );
    expect(out.split('\n')[1]).toMatch(/^trun_1\s+system\s+brand_new_reason\s+now$/);
  });

  it('pauses (a manual run of a paused trigger is exit 7) and resumes', async () => {
    const tr = await trigger(await agent('pausable'), 'new_session');
    expect(JSON.parse((await svc(['triggers', 'pause', tr.id], { env: env() })).stdout).status).toBe('paused');
    const refused = await svc(['triggers', 'run', tr.id], { env: env() });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/^error: .*type=failed_precondition_error/);
    expect(JSON.parse((await svc(['triggers', 'resume', tr.id], { env: env() })).stdout).status).toBe('active');
    expect((await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).body.status).toBe('active');
  });

  it('R-TRIG-2 R-TRIG-3 update: a reuse_session trigger refuses a new agent (exit 7), and takes it with --session-mode new_session', async () => {
    const tr = await trigger(await agent('first'), 'reuse_session');
    const b = await agent('second');
    const refused = await svc(['triggers', 'update', tr.id, '--agent', b], { env: env() });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/type=failed_precondition_error status=400/);
    const ok = await svc(['triggers', 'update', tr.id, '--agent', b, '--session-mode', 'new_session'], { env: env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ agent_id: b, session_mode: 'new_session' });
    expect((await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).body).toMatchObject({ agent_id: b, session_mode: 'new_session' });
  });

  it('deletes a trigger', async () => {
    const tr = await trigger(await agent('deleted'), 'new_session');
    expect(JSON.parse((await svc(['triggers', 'delete', tr.id], { env: env() })).stdout)).toEqual({ id: tr.id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).status).toBe(404);
  });

  it.each([
    [['--name', 'x', '--agent', 'A', '--session-mode', 'sometimes', '--message', 'm']],
    [['--name', 'x', '--agent', 'A', '--session-mode', 'new_session']],
    [['--name', 'x', '--agent', 'A', '--session-mode', 'new_session', '--timezone', 'UTC', '--message', 'm']],
    [['--name', 'x', '--agent', 'A', '--session-mode', 'new_session', '--agent-version', 'latest', '--message', 'm']],
    [['--data', '{"name":"x","agent_id":"A","session_mode":"new_session","initial_events":[{"type":"user.interrupt"}]}']],
  ])('R-TRIG-6 refuses %j with exit 2, one error line and no request', async (args) => {
    const before = await requests();
    const r = await svc(['triggers', 'create', ...args], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await requests()).toBe(before);
  });

  it('every verb has an example in --help', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete', 'apply', 'runs', 'run', 'pause', 'resume']) {
      expect((await svc(['triggers', verb, '--help'])).stdout, verb).toMatch(/Examples:\n\s+\$ svc triggers /);
    }
  });
});
