import { describe, expect, it } from 'vitest';
import { emuEnv, svc, startSvc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
let agentId: string | undefined;
async function session(label: string, title: string): Promise<string> {
  agentId ??= (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'watched', model: 'scripted-1' } })).body.id;
  return (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId, title, metadata: { watch: label } } })).body.id;
}

const start = (args: string[], o: { stdoutTTY?: boolean } = {}) => startSvc(t.emu, args, o);

describe('svc sessions list --watch', () => {
  it('prints the list as ADDED, then ADDED / MODIFIED / DELETED as NDJSON off a terminal; a deletion shows at the resync; Ctrl-C is 130', async () => {
    const a = await session('x1', 'first');
    const b = await session('x1', 'second');
    await session('other', 'not selected');
    const w = start(['sessions', 'list', '-w', '-l', 'watch=x1', '--interval', '20ms', '--debug']);
    await waitUntil(() => w.events().length === 2, 'the initial list');
    expect(w.events().every((e) => e.type === 'ADDED')).toBe(true);
    expect(new Set(w.events().map((e) => e.object.id))).toEqual(new Set([a, b]));
    const c = await session('x1', 'third');
    await waitUntil(() => w.events().find((e) => e.type === 'ADDED' && e.object.id === c), 'ADDED for a new session');
    await call(t.emu, 'PATCH', `/v1/sessions/${a}`, { body: { title: 'renamed' } });
    await waitUntil(() => w.events().find((e) => e.type === 'MODIFIED' && e.object.id === a && e.object.title === 'renamed'), 'MODIFIED');
    await call(t.emu, 'POST', `/v1/sessions/${b}/archive`);
    await waitUntil(() => w.events().find((e) => e.type === 'DELETED' && e.object.id === b), 'DELETED for an archived session');
    await call(t.emu, 'DELETE', `/v1/sessions/${c}`);
    await waitUntil(() => w.events().find((e) => e.type === 'DELETED' && e.object.id === c), 'DELETED at the resync', 20_000);
    // Quiet polls ask only for what changed since the newest updated_at seen.
    expect(w.stderr.text).toMatch(/GET \S*\/v1\/sessions\?\S*updated_at_gt=/);
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  it('on a terminal prints kubectl-style rows with an age column, and --timeout ends the watch with exit 0', async () => {
    const a = await session('x2', 'tty row');
    const w = start(['sessions', 'list', '--watch', '-l', 'watch=x2', '--interval', '50ms', '--timeout', '300ms'], { stdoutTTY: true });
    expect(await w.code).toBe(0);
    const [header, row] = w.stdout.text.split('\n');
    expect(header).toMatch(/^EVENT\s+ID\s+STATUS\s+TITLE\s+AGENT\s+AGE$/);
    expect(row).toMatch(new RegExp(`^ADDED\\s+${a}\\s+idle\\s+tty row\\s+watched \\(${agentId}@1\\)\\s+\\d+s$`));
  });

  it('a stop while a listing is at the service ends the watch as a stop between polls: SIGTERM and --timeout 0, Ctrl-C 130', async () => {
    await session('x4', 'held');
    const delayed = async (): Promise<number> => (await call(t.emu, 'GET', '/_emulator/stats')).body.delayed ?? 0;
    await call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 3000 } });
    try {
      for (const [how, code] of [
        ['SIGTERM', 0],
        ['SIGINT', 130],
        ['--timeout', 0],
      ] as const) {
        const before = await delayed();
        const w = start(['sessions', 'list', '-w', '-l', 'watch=x4', '--interval', '50ms', ...(how === '--timeout' ? ['--timeout', '1s'] : [])]);
        // The first listing is held at the service when the stop comes.
        await waitUntil(async () => (await delayed()) > before, 'the listing to arrive');
        if (how !== '--timeout') w.ctrlC.abort(how);
        expect(await w.code, how).toBe(code);
        expect(w.stderr.text, how).toBe(code === 130 ? 'error: interrupted\n' : '');
      }
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
  });

  it('a malformed --interval, or --limit with --watch, is exit 2 before any request', async () => {
    const r = await svc(['sessions', 'list', '-w', '--interval', 'often'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--interval');
    const limited = await svc(['sessions', 'list', '-w', '--limit', '5'], { env: emuEnv(t.emu) });
    expect(limited.code).toBe(2);
    expect(limited.stderr).toContain('--limit');
  });
});
