import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { confirmations, history, startSvc, waitingOn, workDir, writePolicy } from './helpers';

const t = useEmulator();

describe('svc approve lint, test and --list', () => {
  it('lint: exit 0 with a summary; every problem with FILE:LINE:COL and exit 2', async () => {
    const dir = workDir();
    const good = writePolicy(
      dir,
      'rules:\n  - {name: ls, match: {tool: bash, input: {command: {prefix: "ls "}}}, decision: allow}\n  - {name: rm, match: {tool: bash}, decision: deny}\n',
    );
    const ok = await svc(['approve', 'lint', good], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('2 rules (1 allow, 1 deny), no problem found');
    writePolicy(dir, 'rules:\n  - name: x\n    match: {tool: bash, command: ls}\n    decision: allow\n', 'bad.yaml');
    const r = await svc(['approve', 'lint', 'bad.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.yaml:3:25: rule "x" match: unknown key "command"');
    expect(r.stderr).toContain('error: bad.yaml: 1 problem; fix the policy');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('serve refuses a policy that does not check before anything is sent (exit 2), and flags that do not apply', async () => {
    const dir = workDir();
    writePolicy(dir, 'rules:\n  - {name: rx, match: {input: {command: {regex: "(\\\\w+\\\\s?)*$"}}}, decision: allow}\n');
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.requests;
    const r = await svc(['approve', 'serve', '--policy', 'policy.yaml'], { cwd: dir, env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('policy.yaml:2:');
    expect(r.stderr).toContain('can run away');
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.requests).toBe(before);
    expect((await svc(['approve', 'lint', 'policy.yaml', '--agent', 'x'], { cwd: dir })).stderr).toContain('--agent does not apply to svc approve lint');
    expect((await svc(['approve', 'serve', '--policy', 'p', '--escalate-exec', 'true', '--escalate-to', 'http://x'], { cwd: dir })).code).toBe(2);
    expect((await svc(['approve', 'serve', '--policy', 'p', '--secret-file', 's'], { cwd: dir })).stderr).toContain('--secret-file signs --escalate-to');
    expect((await svc(['approve'], { env: emuEnv(t.emu) })).stderr).toContain('svc approve --list -o json');
  });

  it('test: the rule that would decide each confirmation in the histories, beside how it was answered; nothing sent', async () => {
    const dir = workDir();
    writePolicy(
      dir,
      'rules:\n  - {name: ls, match: {tool: bash, input: {command: {prefix: "ls "}}}, decision: allow}\n  - {name: reads, match: {tool: read, input: {path: {under: /srv}}}, decision: deny}\n',
    );
    const [a, b] = await waitingOn(t.emu, [
      { tool: 'bash', input: { command: 'ls -la' } },
      { tool: 'read', input: { path: '/etc/hosts' } },
    ]);
    const r = await svc(['approve', 'test', 'policy.yaml', a, b, '-o', 'json'], { cwd: dir, env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toEqual([
      expect.objectContaining({ session_id: a, tool: 'bash', rule: 'ls', decision: 'allow', answered: 'awaited', thread: 'main' }),
      expect.objectContaining({ session_id: b, tool: 'read', rule: null, decision: 'none', answered: 'awaited' }),
    ]);
    expect(await confirmations(t.emu, a)).toHaveLength(0);
  });

  it('--list -o json prints the queue, oldest first, with agent name and input', async () => {
    const tag = `list-${Date.now()}`;
    const [a, b] = await waitingOn(t.emu, [
      { tool: 'bash', input: { command: 'make' }, metadata: { q: tag } },
      { tool: 'deploy_service', input: { target: 'prod' }, metadata: { q: tag } },
    ]);
    const r = await svc(['approve', '--list', '-l', `q=${tag}`, '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    // Oldest first by when each call was asked, as the histories say (the two scripted turns may run in either order).
    const askedAt = async (id: string) => Date.parse((await history(t.emu, id)).find((e) => e.type === 'agent.tool_use').processed_at);
    const expected = [
      [a, 'bash', await askedAt(a!)],
      [b, 'deploy_service', await askedAt(b!)],
    ]
      .sort((x, y) => (x[2] as number) - (y[2] as number))
      .map(([id, tool]) => [id, tool]);
    expect(rows.map((x: any) => [x.session_id, x.tool])).toEqual(expected);
    expect(rows[0]).toMatchObject({ input: { command: 'make' }, agent: expect.stringMatching(/^approver-/), thread: null });
  });

  it('accessible mode: a line when a call starts waiting and one when it is answered elsewhere; nothing redrawn', async () => {
    const tag = `acc-${Date.now()}`;
    const [a] = await waitingOn(t.emu, [{ tool: 'bash', input: { command: 'make' }, metadata: { q: tag } }]);
    const run = startSvc(t.emu, ['approve', '-l', `q=${tag}`, '--interval', '100ms'], { stdoutTTY: true, env: { SVC_ACCESSIBLE: '1' } });
    await waitUntil(() => run.stdout().includes(`awaits a confirmation: bash in ${a}`) || undefined, 'the line');
    const [asked] = (await call(t.emu, 'GET', `/v1/sessions/${a}`)).body.stop_reason.event_ids;
    await call(t.emu, 'POST', `/v1/sessions/${a}/events`, {
      body: { events: [{ type: 'user.tool_confirmation', data: { event_id: asked, result: 'allow' } }] },
    });
    await waitUntil(() => run.stdout().includes(`no longer awaited: bash in ${a}`) || undefined, 'the second line');
    const r = await run.stop();
    expect(r.code).toBe(130);
    expect(r.stdout).not.toContain('\u001b[');
  });
});
