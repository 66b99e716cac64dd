import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approver, noApproverMetrics, type AuditLine } from '../../src/approve/serve';
import { parsePolicy } from '../../src/approve/policy';
import { Ctx } from '../../src/runtime/context';
import { ListenState } from '../../src/listen/state';
import { emuEnv } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { useReceiver, verifySignature } from '../listen/receiver';
import { auditLines, confirmations, history, startSvc, waitingOn, workDir, writePolicy } from './helpers';

const POLICY = `rules:
  - name: never delete
    match: {tool: bash, input: {command: {regex: "\\\\brm\\\\s"}}}
    decision: deny
    message: "Deleting files is not allowed here; ask a human."
  - name: read-only shell
    match: {tool: bash, input: {command: {prefix: "ls "}}}
    decision: allow
  - name: reads under srv
    match: {tool: read, input: {path: {under: /srv}}}
    decision: allow
  - name: nothing in etc
    match: {tool: read, input: {path: {under: /etc}}}
    decision: deny
  - name: deploys to a human
    match: {tool: deploy_service, input: {target: {glob: "prod-*"}}}
    decision: ask
  - name: staging deploys
    match: {tool: deploy_service}
    decision: allow
`;

/** 30 calls over bash, read and a tool of the team's own (deploy_service), with the rule that must decide each. */
const CASES: Array<{ tool: string; input: Record<string, string>; rule: string | null; decision: string; answer?: 'allow' | 'deny' }> = [];
for (let i = 0; i < 5; i++) {
  CASES.push({ tool: 'bash', input: { command: `ls -la /srv/app${i}` }, rule: 'read-only shell', decision: 'allow', answer: 'allow' });
  CASES.push({ tool: 'bash', input: { command: `ls x${i} && rm -rf /` }, rule: 'never delete', decision: 'deny', answer: 'deny' });
  CASES.push({ tool: 'read', input: { path: `/srv/data/${i}.txt` }, rule: 'reads under srv', decision: 'allow', answer: 'allow' });
  CASES.push({ tool: 'read', input: { path: `/srv/../etc/passwd${i}` }, rule: 'nothing in etc', decision: 'deny', answer: 'deny' });
  CASES.push({ tool: 'deploy_service', input: { target: `prod-${i}` }, rule: 'deploys to a human', decision: 'ask' });
  CASES.push({ tool: 'deploy_service', input: { target: `staging-${i}` }, rule: 'staging deploys', decision: 'allow', answer: 'allow' });
}

describe('svc approve serve', () => {
  const t = useEmulator();

  it('R-SESS-52 answers 30 sessions waiting on bash, read and a custom tool, each once, by the right rule', async () => {
    const dir = workDir();
    const policy = writePolicy(dir, POLICY);
    const audit = join(dir, 'audit.ndjson');
    const ids = await waitingOn(t.emu, CASES);
    const approver = startSvc(t.emu, [
      'approve',
      'serve',
      '--policy',
      policy,
      '--audit',
      audit,
      '--interval',
      '100ms',
      '--max-streams',
      '10',
      '--metrics-addr',
      '127.0.0.1:0',
    ]);
    const decided = CASES.filter((c) => c.answer).length;
    await waitUntil(() => auditLines(audit).length >= CASES.length && true, 'every call decided', 30_000);
    const metricsUrl = /metrics on (http:\/\/\S+\/metrics)/.exec(approver.stderr())![1];
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toContain('svc_approve_decisions_total{decision="allow",rule="read-only shell"} 5');
    expect(metrics).toContain('svc_approve_decisions_total{decision="deny",rule="never delete"} 5');
    expect(metrics).toContain('svc_approve_decisions_total{decision="ask",rule="deploys to a human"} 5');
    const r = await approver.stop();
    expect(r.code).toBe(130);
    const lines = auditLines(audit);
    for (const [i, c] of CASES.entries()) {
      const got = await confirmations(t.emu, ids[i]);
      const mine = lines.filter((l) => l.session === ids[i]);
      expect(mine, `${c.tool} ${JSON.stringify(c.input)}`).toHaveLength(1);
      expect(mine[0]).toMatchObject({ tool: c.tool, rule: c.rule, decision: c.decision, thread: 'main' });
      expect(mine[0].input_sha256).toMatch(/^[0-9a-f]{64}$/);
      // The audit log never holds the input itself.
      expect(JSON.stringify(mine[0])).not.toContain(Object.values(c.input)[0]);
      if (!c.answer) {
        expect(got).toHaveLength(0);
        expect(mine[0].outcome).toBe('left');
        continue;
      }
      expect(got).toHaveLength(1);
      expect(got[0].data.result).toBe(c.answer);
      expect(mine[0].outcome).toBe('answered');
      if (c.answer === 'deny')
        expect(got[0].data.deny_message).toBe(
          c.rule === 'never delete' ? 'Deleting files is not allowed here; ask a human.' : 'Denied by the approval policy (rule "nothing in etc").',
        );
    }
    expect(lines.filter((l) => l.outcome === 'answered')).toHaveLength(decided);
  }, 60_000);

  it('R-SESS-52 two approvers over the same sessions: each call answered once; the other counts it answered elsewhere', async () => {
    const dir = workDir();
    const policy = writePolicy(dir, 'rules:\n  - {name: everything, match: {}, decision: allow}\n');
    const tag = `pair-${Date.now()}`;
    const ids = await waitingOn(
      t.emu,
      Array.from({ length: 20 }, (_, i) => ({ tool: i % 2 ? 'bash' : 'read', input: { n: String(i) }, metadata: { pair: tag } })),
    );
    const a = join(dir, 'a.ndjson');
    const b = join(dir, 'b.ndjson');
    const args = ['approve', 'serve', '--policy', policy, '-l', `pair=${tag}`, '--interval', '100ms'];
    const one = startSvc(t.emu, [...args, '--audit', a]);
    const two = startSvc(t.emu, [...args, '--audit', b]);
    await waitUntil(async () => (await Promise.all(ids.map((id) => confirmations(t.emu, id)))).every((c) => c.length >= 1), 'all answered', 30_000);
    await waitUntil(() => [...auditLines(a), ...auditLines(b)].filter((l) => l.outcome === 'answered').length >= 20 || undefined, 'the answers audited');
    // Time for the slower approver to meet the answers it lost.
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all([one.stop(), two.stop()]);
    const lines = [...auditLines(a), ...auditLines(b)];
    for (const id of ids) {
      expect(await confirmations(t.emu, id)).toHaveLength(1);
      const mine = lines.filter((l) => l.session === id);
      expect(mine.filter((l) => l.outcome === 'answered')).toHaveLength(1);
      // The one that lost saw the answer (in its stream, before trying) or was told by the service: never a second answer.
      expect(mine.filter((l) => l.outcome === 'answered_elsewhere').length).toBeLessThanOrEqual(1);
    }
    // The race was real: some calls were tried by both.
    expect(lines.filter((l) => l.outcome === 'answered_elsewhere').length).toBeGreaterThan(0);
  }, 60_000);

  it('--deny-after denies, with a message, what no one answered in time (a fake clock)', async () => {
    const dir = workDir();
    // No rule names `write`: no decision, left to a human.
    const policy = writePolicy(dir, 'rules:\n  - {name: reads, match: {tool: read}, decision: allow}\n');
    const tag = `late-${Date.now()}`;
    const [id] = await waitingOn(t.emu, [{ tool: 'write', input: { path: '/srv/x' }, metadata: { late: tag } }]);
    let offset = 0;
    const audit = join(dir, 'audit.ndjson');
    const approver = startSvc(
      t.emu,
      ['approve', 'serve', '--policy', policy, '-l', `late=${tag}`, '--deny-after', '1h', '--interval', '20ms', '--audit', audit],
      {
        now: () => Date.now() + offset,
      },
    );
    await waitUntil(() => auditLines(audit).some((l) => l.outcome === 'left') || undefined, 'left to a human');
    // Well within the hour: still waiting, several looks later.
    await new Promise((r) => setTimeout(r, 500));
    expect(await confirmations(t.emu, id)).toHaveLength(0);
    offset = 59 * 60_000;
    await new Promise((r) => setTimeout(r, 500));
    expect(await confirmations(t.emu, id)).toHaveLength(0);
    offset = 61 * 60_000;
    const [c] = await waitUntil(async () => {
      const got = await confirmations(t.emu, id);
      return got.length ? got : undefined;
    }, 'the deny');
    expect(c.data).toMatchObject({ result: 'deny', deny_message: expect.stringContaining('No one answered this confirmation within 3600s') });
    await approver.stop();
    expect(auditLines(audit).at(-1)).toMatchObject({ session: id, rule: 'deny-after', decision: 'deny', outcome: 'answered' });
    // The agent was told why.
    expect((await history(t.emu, id)).some((e) => e.type === 'agent.tool_result' && e.data.is_error)).toBe(true);
  }, 30_000);

  const receiver = useReceiver();

  it('escalates what the policy leaves to a human, signed as svc listen signs (the same check)', async () => {
    const dir = workDir();
    const policy = writePolicy(dir, 'rules:\n  - {name: prod to a human, match: {tool: deploy_service}, decision: ask}\n');
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, 's3cret-for-the-approver-test-0123456789\n', { mode: 0o600 });
    const tag = `esc-${Date.now()}`;
    const [id] = await waitingOn(t.emu, [{ tool: 'deploy_service', input: { target: 'prod-eu' }, metadata: { esc: tag } }]);
    const audit = join(dir, 'audit.ndjson');
    const approver = startSvc(t.emu, [
      'approve',
      'serve',
      '--policy',
      policy,
      '-l',
      `esc=${tag}`,
      '--escalate-to',
      receiver.url,
      '--secret-file',
      secretFile,
      '--audit',
      audit,
      '--interval',
      '100ms',
    ]);
    const got = await waitUntil(() => receiver.requests.find((r) => r.json?.session_id === id), 'the escalation');
    await waitUntil(() => auditLines(audit).length >= 1 || undefined, 'the audit line');
    await approver.stop();
    expect(verifySignature(got.headers['svc-signature'], got.body, 's3cret-for-the-approver-test-0123456789')).toBe(true);
    expect(verifySignature(got.headers['svc-signature'], got.body, 'another secret')).toBe(false);
    expect(got.json.event).toMatchObject({
      type: 'session.requires_action',
      data: { kind: 'tool_confirmation', name: 'deploy_service', input: { target: 'prod-eu' } },
    });
    expect(got.headers['svc-delivery-id']).toMatch(/^dlv_/);
    expect(auditLines(audit)).toEqual([expect.objectContaining({ session: id, rule: 'prod to a human', decision: 'ask', outcome: 'escalated' })]);
    expect(await confirmations(t.emu, id)).toHaveLength(0);
  }, 30_000);
});

describe('svc approve serve, safe by construction', () => {
  const t = useEmulator();

  it('a deny the service refuses (500, not applied) is tried again until it lands, and never becomes an allow', async () => {
    const dir = workDir();
    const policy = writePolicy(dir, 'rules:\n  - {name: no writes, match: {tool: write}, decision: deny, message: "No writes."}\n');
    const [id] = await waitingOn(t.emu, [{ tool: 'write', input: { path: '/srv/x' } }]);
    await call(t.emu, 'POST', '/_emulator/faults', { body: { reject_write_every: 1 } });
    const audit = join(dir, 'audit.ndjson');
    const approver = startSvc(t.emu, ['approve', 'serve', '--policy', policy, '--audit', audit, '--interval', '100ms']);
    await waitUntil(() => /attempt 2 failed/.test(approver.stderr()) || undefined, 'a second attempt', 20_000);
    expect(await confirmations(t.emu, id)).toHaveLength(0);
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    const got = await waitUntil(
      async () => {
        const c = await confirmations(t.emu, id);
        return c.length ? c : undefined;
      },
      'the deny',
      30_000,
    );
    await approver.stop();
    expect(got.map((e) => e.data)).toEqual([{ event_id: expect.any(String), result: 'deny', deny_message: 'No writes.' }]);
    expect(auditLines(audit)).toEqual([expect.objectContaining({ session: id, rule: 'no writes', decision: 'deny', outcome: 'answered' })]);
  }, 60_000);

  it('a session its selectors no longer own (its metadata changed) is not answered', async () => {
    const dir = workDir();
    const policy = writePolicy(dir, 'rules:\n  - {name: all, match: {}, decision: allow}\n');
    const tag = `own-${Date.now()}`;
    const [id] = await waitingOn(t.emu, [{ tool: 'bash', input: { command: 'ls' }, metadata: { own: tag } }]);
    const client = await new Ctx({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: emuEnv(t.emu), cwd: dir }, {}).api();
    const session = (await call(t.emu, 'GET', `/v1/sessions/${id}`)).body;
    const asked = (await history(t.emu, id)).find((e) => e.type === 'agent.tool_use');
    const lines: AuditLine[] = [];
    const o = { policy: await parsePolicy(readFileSync(policy, 'utf8'), 'policy.yaml'), selectors: {}, maxStreams: 1, intervalMs: 100 };
    const deps = {
      client,
      state: ListenState.memory(Date.now()),
      signal: new AbortController().signal,
      sleep: async () => {},
      now: Date.now,
      random: Math.random,
      notice: () => {},
      audit: (l: AuditLine) => lines.push(l),
      metrics: noApproverMetrics,
    };
    const derived = {
      id: `${asked.id}.requires_action`,
      type: 'session.requires_action',
      processed_at: asked.processed_at,
      data: { kind: 'tool_confirmation', event_id: asked.id, name: 'bash', input: { command: 'ls' } },
    };
    const delivery = {
      id: 'dlv_x',
      sessionId: id,
      eventId: derived.id,
      type: 'session.requires_action',
      body: JSON.stringify({ session_id: id, event: derived }),
    };
    // Owned by `-l own=other`: no.
    const owns = (s: Record<string, unknown>) => (s.metadata as Record<string, string>).own === 'other';
    expect(owns(session)).toBe(false);
    expect(await approver(o, deps, owns).attempt(delivery, 1, deps.signal)).toEqual({ kind: 'accepted' });
    expect(lines).toEqual([expect.objectContaining({ session: id, outcome: 'outside_selection', decision: 'none' })]);
    expect(await confirmations(t.emu, id)).toHaveLength(0);
    // The same delivery, owned: answered.
    expect(await approver(o, deps, () => true).attempt(delivery, 1, deps.signal)).toEqual({ kind: 'accepted' });
    expect((await confirmations(t.emu, id)).map((e) => e.data.result)).toEqual(['allow']);
  }, 30_000);

  it('thread: main and thread: child tell a call of the coordinator from one of a child thread', async () => {
    const dir = workDir();
    const policy = writePolicy(
      dir,
      'rules:\n  - {name: main shell, match: {tool: bash, thread: main}, decision: allow}\n  - {name: child shell, match: {tool: bash, thread: child}, decision: deny}\n',
    );
    const tag = `thr-${Date.now()}`;
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: `lead-${tag}`, model: 'scripted-1', roster: [{ name: 'worker' }] } })).body.id;
    const [main] = await waitingOn(t.emu, [{ tool: 'bash', input: { command: 'ls' }, metadata: { thr: tag } }], agent);
    const child = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent, metadata: { thr: tag } } })).body.id;
    const text = '/delegate 1 /confirm bash {"command":"ls"}';
    await call(t.emu, 'POST', `/v1/sessions/${child}/events`, { body: { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] } });
    await waitUntil(async () => (await call(t.emu, 'GET', `/v1/sessions/${child}`)).body.requires_action === true, 'the child thread to wait');
    const audit = join(dir, 'audit.ndjson');
    const approver = startSvc(t.emu, ['approve', 'serve', '--policy', policy, '-l', `thr=${tag}`, '--audit', audit, '--interval', '100ms']);
    await waitUntil(() => auditLines(audit).length >= 2 || undefined, 'both decided');
    await approver.stop();
    expect(auditLines(audit).find((l) => l.session === main)).toMatchObject({ thread: 'main', rule: 'main shell', decision: 'allow' });
    expect(auditLines(audit).find((l) => l.session === child)).toMatchObject({ thread: 'child', rule: 'child shell', decision: 'deny' });
    const [c] = await confirmations(t.emu, child);
    expect(c.data.result).toBe('deny');
    // The reply was sent without a thread, and the service put it on the child's thread.
    expect(c.session_thread_id).toEqual(expect.any(String));
  }, 30_000);
});
