import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { auditLines, confirmations, waitingOn, workDir, writePolicy } from './helpers';

const t = useEmulator();
const built = useBundledSvc();

describe('svc approve serve --state across kill -9', () => {
  it('an approver killed with SIGKILL mid-backlog and restarted with the same --state answers nothing twice and misses nothing', async () => {
    const dir = workDir();
    const policy = writePolicy(
      dir,
      'rules:\n  - {name: shell, match: {tool: bash, input: {command: {prefix: "ls "}}}, decision: allow}\n  - {name: reads, match: {tool: read}, decision: deny}\n',
    );
    const tag = `kill-${Date.now()}`;
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 2 ? { tool: 'bash', input: { command: `ls ${i}` } } : { tool: 'read', input: { path: `/x/${i}` } },
    );
    const ids = await waitingOn(
      t.emu,
      calls.map((c) => ({ ...c, metadata: { kill: tag } })),
    );
    const state = join(dir, 'state.json');
    const audit = join(dir, 'audit.ndjson');
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir() };
    const args = ['approve', 'serve', '--policy', policy, '-l', `kill=${tag}`, '--state', state, '--audit', audit, '--interval', '100ms', '--max-streams', '8'];
    // Every answer slowed, so the kill lands in the middle of the backlog.
    await call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 40 } });
    const first = spawnSvc(built.bin, args, env);
    await waitUntil(() => auditLines(audit).length >= 3 || undefined, 'a few answers', 30_000);
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    const before = auditLines(audit).length;
    expect(before).toBeLessThan(30);
    // Sessions that start waiting while no approver runs.
    const late = await waitingOn(
      t.emu,
      [0, 1, 2, 3].map((i) => ({ tool: 'bash', input: { command: `ls late${i}` }, metadata: { kill: tag } })),
    );
    const all = [...ids, ...late];
    const second = spawnSvc(built.bin, args, env);
    await waitUntil(
      async () => (await Promise.all(all.map((id) => confirmations(t.emu, id)))).every((c) => c.length > 0) || undefined,
      'every call answered',
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    second.child.kill('SIGINT');
    expect((await second.exit).code).toBe(130);
    for (const [i, id] of all.entries()) {
      const got = await confirmations(t.emu, id);
      expect(got, id).toHaveLength(1);
      expect(got[0].data.result).toBe(i < 30 && i % 2 === 0 ? 'deny' : 'allow');
    }
    const lines = auditLines(audit);
    // The restarted approver did the rest, and answered none twice.
    expect(lines.length).toBeGreaterThan(before);
    for (const id of all) expect(lines.filter((l) => l.session === id && l.outcome === 'answered').length).toBeLessThanOrEqual(1);
  }, 120_000);
});
