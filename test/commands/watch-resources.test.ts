import { describe, expect, it } from 'vitest';
import { startSvc } from '../helpers/cli';
import { bearer, call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const requests: string[] = [];
const logged = useEmulator({ log: (line) => requests.push(line) });

const start = (args: string[], o: { stdoutTTY?: boolean } = {}) => startSvc(t.emu, args, o);

const agent = async (name: string, metadata: Record<string, string>) =>
  (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1', metadata } })).body.id as string;

describe('--watch on agents, environments, triggers and work list', () => {
  it('agents list -w -l: the selection as ADDED, then ADDED / MODIFIED / DELETED as NDJSON; quiet polls ask with updated_at_gt; Ctrl-C is 130', async () => {
    const a = await agent('watched-a', { watch: 'w1' });
    await agent('not-watched', { watch: 'other' });
    const w = start(['agents', 'list', '-w', '-l', 'watch=w1', '--interval', '20ms', '--debug']);
    await waitUntil(() => w.events().length === 1, 'the initial list');
    expect(w.events()[0]).toMatchObject({ type: 'ADDED', object: { id: a, name: 'watched-a' } });
    const b = await agent('watched-b', { watch: 'w1' });
    await waitUntil(() => w.events().find((e) => e.type === 'ADDED' && e.object.id === b), 'ADDED for a new agent');
    await call(t.emu, 'PATCH', `/v1/agents/${a}`, { body: { description: 'changed' } });
    await waitUntil(() => w.events().find((e) => e.type === 'MODIFIED' && e.object.id === a && e.object.description === 'changed'), 'MODIFIED');
    // A label removed takes the agent out of the selection.
    await call(t.emu, 'PATCH', `/v1/agents/${b}`, { body: { metadata: { watch: 'gone' } } });
    await waitUntil(() => w.events().find((e) => e.type === 'DELETED' && e.object.id === b), 'DELETED when it stops matching');
    await call(t.emu, 'POST', `/v1/agents/${a}/archive`);
    await waitUntil(() => w.events().find((e) => e.type === 'DELETED' && e.object.id === a), 'DELETED for an archived agent');
    expect(w.events().some((e) => e.object.name === 'not-watched')).toBe(false);
    expect(w.stderr.text).toMatch(/GET \S*\/v1\/agents\?\S*updated_at_gt=/);
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  it('environments list -w on a terminal prints kubectl-style rows with an age column; --timeout ends it with exit 0', async () => {
    const env = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'watched-env', metadata: { watch: 'w2' } } })).body.id;
    const w = start(['environments', 'list', '--watch', '-l', 'watch=w2', '--interval', '50ms', '--timeout', '300ms'], { stdoutTTY: true });
    expect(await w.code).toBe(0);
    const [header, row, ...rest] = w.stdout.text.split('\n');
    expect(header).toMatch(/^EVENT\s+ID\s+NAME\s+TYPE\s+PROXY\s+AGE$/);
    expect(row).toMatch(new RegExp(`^ADDED\\s+${env}\\s+watched-env\\s+cloud\\s+.*\\d+s$`));
    expect(rest.filter(Boolean)).toEqual([]);
  });

  it('triggers list -w prints a paused trigger as MODIFIED', async () => {
    const owner = await agent('trigger-owner', {});
    const body = { name: 'watched-trigger', agent_id: owner, session_mode: 'new_session', initial_events: [], metadata: { watch: 'w3' } };
    const trig = (await call(t.emu, 'POST', '/v1/triggers', { body })).body.id;
    const w = start(['triggers', 'list', '-w', '-l', 'watch=w3', '--interval', '20ms']);
    await waitUntil(() => w.events().length === 1, 'the initial list');
    await call(t.emu, 'POST', `/v1/triggers/${trig}/pause`);
    const modified = await waitUntil(() => w.events().find((e) => e.type === 'MODIFIED'), 'MODIFIED');
    expect(modified.object).toMatchObject({ id: trig, status: 'paused' });
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  it('work list ENV -w: a new row is ADDED and its claim MODIFIED (rows have no updated_at: each poll compares them whole); no secret is printed', async () => {
    const envId = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'watched-workers', config: { type: 'self_hosted' } } })).body.id;
    const key = (await call(t.emu, 'POST', `/_emulator/environments/${envId}/keys`)).body.key;
    const w = start(['work', 'list', envId, '-w', '--interval', '20ms']);
    const s = await createSession(t.emu, { environment_id: envId });
    await send(t.emu, s.id, '/tool bash {"cmd":"ls"}');
    const added = await waitUntil(() => w.events().find((e) => e.type === 'ADDED'), 'ADDED for the queued row');
    expect(added.object).toMatchObject({ session_id: s.id, status: 'queued' });
    const claim = await call(t.emu, 'GET', `/v1/environments/${envId}/work/poll`, { headers: { ...bearer(key), 'svc-worker-id': 'watch-worker' } });
    expect(claim.body.items).toHaveLength(1);
    const modified = await waitUntil(() => w.events().find((e) => e.type === 'MODIFIED'), 'MODIFIED for the claim');
    expect(modified.object).toMatchObject({ id: added.object.id, worker_id: 'watch-worker' });
    expect(w.stdout.text).not.toContain('secret');
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  it('work list ENV_NAME -w looks the name up at the first poll only: every later poll is one request', async () => {
    const envId = (await call(logged.emu, 'POST', '/v1/environments', { body: { name: 'watched-by-name', config: { type: 'self_hosted' } } })).body.id;
    requests.length = 0;
    const w = startSvc(logged.emu, ['work', 'list', 'watched-by-name', '-w', '--interval', '20ms']);
    const polls = () => requests.filter((l) => l.startsWith(`GET /v1/environments/${envId}/work `)).length;
    await waitUntil(() => polls() >= 8, 'eight polls of the work rows');
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
    // The name tried as an ID once, the environments listed once to find it; then only the work rows.
    expect(requests.filter((l) => l.startsWith('GET /v1/environments/watched-by-name/work '))).toHaveLength(1);
    expect(requests.filter((l) => /^GET \/v1\/environments /.test(l))).toHaveLength(1);
    expect(requests.length).toBe(polls() + 2);
  });
});
