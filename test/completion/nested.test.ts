import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CACHE_FILE_NAME } from '../../src/completion/cache';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { complete as completeWith } from '../helpers/complete';
import { call, useEmulator, requestCount } from '../helpers/emulator';
import { createSession, send, waitSession } from '../helpers/sse';

const t = useEmulator();
/** How long the slow service takes to answer. */
const SLOW_MS = 2000;
const slow = useEmulator({ faults: { delay_ms: SLOW_MS } });
const failing = useEmulator({ faults: { rate_limit_every: 1, retry_after: 30 } });

const requests = requestCount;
const complete = (words: string[], env = emuEnv(t.emu)) => completeWith(words, env);
const threadIds = async (sid: string): Promise<string[]> =>
  (await call(t.emu, 'GET', `/v1/sessions/${sid}/threads`)).body.items.map((x: { id: string }) => x.id);

describe('svc __complete: IDs nested under a parent given earlier on the line', () => {
  let one: any;
  let two: any;
  beforeAll(async () => {
    // The built CLI loads the HTTP client in milliseconds; under vitest the first import is transformed and slow.
    await import('../../src/api/client');
    one = await createSession(t.emu, { title: 'one' });
    two = await createSession(t.emu, { title: 'two' });
  });

  it('a thread completes from the threads of the session before it, never another session', async () => {
    const [ofOne, ofTwo] = [await threadIds(one.id), await threadIds(two.id)];
    expect(ofOne).toHaveLength(1);
    expect(await complete(['threads', 'get', one.id, ''])).toEqual([[ofOne[0], 'helper']]);
    expect(await complete(['threads', 'tail', two.id, ''])).toEqual([[ofTwo[0], 'helper']]);
  });

  it('an option value (--thread) takes its parent from the positional session', async () => {
    const [thread] = await threadIds(one.id);
    expect(await complete(['sessions', 'tail', one.id, '--thread', ''])).toEqual([[thread, 'helper']]);
    expect(await complete(['sessions', 'events', '--order', 'asc', one.id, '--thread', thread.slice(0, 3)])).toEqual([[thread, 'helper']]);
  });

  it('without its parent on the line, a nested value completes to nothing and sends no request', async () => {
    const before = await requests(t.emu);
    expect(await complete(['sessions', 'tail', '--thread', ''])).toEqual([]);
    expect(await requests(t.emu)).toBe(before);
  });

  it('the cache keeps each parent apart: a second session asks again, a repeat asks nothing', async () => {
    const env = emuEnv(t.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    const first = await complete(['threads', 'get', one.id, ''], env);
    const afterFirst = await requests(t.emu);
    const second = await complete(['threads', 'get', two.id, ''], env);
    expect(await requests(t.emu)).toBe(afterFirst + 1);
    expect(second).not.toEqual(first);
    const afterSecond = await requests(t.emu);
    expect(await complete(['threads', 'archive', one.id, ''], env)).toEqual(first);
    expect(await requests(t.emu)).toBe(afterSecond);
    const keys = Object.keys(JSON.parse(readFileSync(join(env.SVC_CONFIG_DIR!, CACHE_FILE_NAME), 'utf8')));
    expect(keys.filter((k) => k.includes(`/v1/sessions/${one.id}/threads`))).toHaveLength(1);
    expect(keys.filter((k) => k.includes(`/v1/sessions/${two.id}/threads`))).toHaveLength(1);
  });

  it('memories of a store, then their versions labelled by operation and path', async () => {
    const store = (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: 'notes' } })).body;
    const memory = (await call(t.emu, 'POST', `/v1/memory-stores/${store.id}/memories`, { body: { path: 'a.md', content: 'one' } })).body;
    await call(t.emu, 'PATCH', `/v1/memory-stores/${store.id}/memories/${memory.id}`, { body: { content: 'two' } });
    const held = (await call(t.emu, 'GET', `/v1/memory-stores/${store.id}/memories/${memory.id}/versions`)).body.items.map((v: { id: string }) => v.id);
    expect(await complete(['memories', 'cat', store.id, ''])).toEqual([[memory.id, 'a.md']]);
    expect(await complete(['memories', 'redact', store.id, memory.id, ''])).toEqual([
      [held[0], 'modified a.md'],
      [held[1], 'created a.md'],
    ]);
    expect((await complete(['memories', 'cat', store.id, memory.id, '--version', ''])).map(([id]) => id)).toEqual(held);
  });

  it('credentials of a vault by name, and work rows of an environment by status', async () => {
    const vault = (await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'v' } })).body;
    const cred = (await call(t.emu, 'POST', `/v1/vaults/${vault.id}/credentials`, { body: { name: 'gh token', type: 'static_bearer', value: 'not-shown' } }))
      .body;
    expect(await complete(['vaults', 'credentials', 'delete', vault.id, ''])).toEqual([[cred.id, 'gh token']]);
    const envRec = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'hosts', config: { type: 'self_hosted' } } })).body;
    t.emu.services.work!.ensureRow(one.id, envRec.id);
    const [row] = (await call(t.emu, 'GET', `/v1/environments/${envRec.id}/work`)).body.items;
    expect(await complete(['work', 'ack', envRec.id, ''])).toEqual([[row.id, 'queued']]);
  });

  it('--version completes the versions of the agent given earlier, newest first', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'v1', model: 'm' } })).body;
    await call(t.emu, 'PATCH', `/v1/agents/${agent.id}`, { body: { name: 'v2' } });
    expect(await complete(['agents', 'get', agent.id, '--version', ''])).toEqual([
      ['2', 'v2'],
      ['1', 'v1'],
    ]);
    expect(await complete(['sessions', 'create', '--agent-id', agent.id, '--agent-version', '1'])).toEqual([['1', 'v1']]);
  });

  it('confirm offers the events the session awaits, asked afresh each time (not from the cache)', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm bash {"command":"ls"}');
    const awaited = (await waitSession(t.emu, s.id, (x) => x.requires_action)).stop_reason.event_ids;
    const env = emuEnv(t.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    expect(await complete(['sessions', 'confirm', s.id, ''], env)).toEqual([[awaited[0], 'awaited']]);
    const r = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.tool_confirmation', data: { event_id: awaited[0], result: 'allow' } }] },
    });
    expect(r.status).toBe(202);
    await waitSession(t.emu, s.id, (x) => !x.requires_action);
    expect(await complete(['sessions', 'confirm', s.id, ''], env)).toEqual([]);
  });

  it('a local file argument is left to the shell; a file_id option completes uploaded files', async () => {
    const f = await svc(['files', 'upload', new URL(import.meta.url).pathname, '-o', 'id'], { env: emuEnv(t.emu) });
    expect(f.code).toBe(0);
    const before = await requests(t.emu);
    expect(await complete(['files', 'upload', ''])).toEqual([]);
    expect(await complete(['agents', 'apply', ''])).toEqual([]);
    expect(await requests(t.emu)).toBe(before);
    expect((await complete(['sessions', 'send', one.id, '--file', ''])).map(([id]) => id)).toContain(f.stdout.trim());
  });

  it('with a cold cache and a service that takes 2 s, a nested list answers nothing before the service does', async () => {
    const started = performance.now();
    const r = await svc(['__complete', '--', 'threads', 'get', 'sesn_x', ''], { env: emuEnv(slow.emu) });
    // Ordered against the service's own delay, not a budget: waiting for the answer would take 2 s.
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a service that refuses (429 with a 30 s Retry-After) gets no retry: nothing, at once, and no message', async () => {
    const before = await requests(failing.emu);
    const r = await svc(['__complete', '--', 'memories', 'get', 'memstore_x', ''], { env: emuEnv(failing.emu) });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await requests(failing.emu)).toBe(before + 1);
  });
});
