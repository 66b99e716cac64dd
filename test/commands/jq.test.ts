import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);

describe('--jq on commands', () => {
  it('filters 400 listed items with -o ndjson, one result per item', async () => {
    const seeded = await call(t.emu, 'POST', '/_emulator/seed', { body: { agents: 400 } });
    expect(seeded.status).toBe(201);
    const r = await svc(['agents', 'list', '--limit', '400', '-o', 'ndjson', '--jq', '.id'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(400);
    expect(new Set(ids).size).toBe(400);
    expect(ids.every((id) => /^agent_/.test(id))).toBe(true);
  });

  it('a syntax error in --jq exits 2 before any request: nothing is created', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'create', '--name', 'never-made', '--model', 'm-1', '--jq', '.['], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --jq: syntax error, unexpected end of file \(line 1\)\n$/);
    expect(r.stdout).toBe('');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('tails a session through --jq past 314 events', async () => {
    const seeded = await call(t.emu, 'POST', '/_emulator/seed', { body: { session_events: 400 } });
    const sessionId = seeded.body.session_id as string;
    const r = await svc(['sessions', 'tail', sessionId, '--cursor', '0', '--until', 'idle', '--jq', '.type'], { env: env(), sleep: async () => {} });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const types = r.stdout.trim().split('\n');
    expect(types.length).toBeGreaterThanOrEqual(400);
    expect(types.filter((x) => x === 'agent.message').length).toBe(399);
    expect(types.at(-1)).toBe('session.status');
  });

  it("an error of the expression on one item prints the results before it, then exits 2 with jq's message", async () => {
    await call(t.emu, 'POST', '/_emulator/seed', { body: { agents: 3 } });
    const r = await svc(['agents', 'list', '--limit', '3', '--jq', '.[] | .name | if endswith("-1") then error("stop at \\(.)") else . end'], { env: env() });
    expect(r.code).toBe(2);
    // Newest first, seeded-1 is the page's last item: the cut-list notice may come before the error.
    expect(r.stderr).toMatch(/(^|\n)error: --jq: stop at seeded-1\n$/);
    const names = r.stdout.split('\n').filter(Boolean);
    expect(names.every((n) => n.startsWith('seeded-') && n !== 'seeded-1')).toBe(true);
  });
});
