/**
 * A nested value after a parent given by name (completion offers names for resources that have them): the name is
 * resolved to its ID from the parent's list (cached, or one request), then the children under that ID are offered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { complete as completeWith } from '../helpers/complete';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const failing = useEmulator({ faults: { rate_limit_every: 1, retry_after: 30 } });

const complete = (words: string[], env = emuEnv(t.emu)) => completeWith(words, env);
const created = async (path: string, body: Record<string, unknown>) => {
  const r = await call(t.emu, 'POST', path, { body });
  expect(r.status).toBe(201);
  return r.body;
};

describe('svc __complete: children of a parent given by name', () => {
  beforeAll(async () => {
    // The built CLI loads the HTTP client in milliseconds; under vitest the first import is transformed and slow.
    await import('../../src/api/client');
  });

  it('--version completes the versions of an agent given by name', async () => {
    const agent = await created('/v1/agents', { name: 'named-agent', model: 'm' });
    await call(t.emu, 'PATCH', `/v1/agents/${agent.id}`, { body: { description: 'second' } });
    expect(await complete(['agents', 'get', 'named-agent', '--version', ''])).toEqual([
      ['2', 'named-agent'],
      ['1', 'named-agent'],
    ]);
  });

  it('the credentials of a vault given by name', async () => {
    const vault = await created('/v1/vaults', { name: 'named-vault' });
    const cred = await created(`/v1/vaults/${vault.id}/credentials`, { name: 'gh token', type: 'static_bearer', value: 'not-shown' });
    expect(await complete(['vaults', 'credentials', 'delete', 'named-vault', ''])).toEqual([[cred.id, 'gh token']]);
  });

  it('the memories of a memory store given by name', async () => {
    const store = await created('/v1/memory-stores', { name: 'named-store' });
    const memory = await created(`/v1/memory-stores/${store.id}/memories`, { path: 'notes.md', content: 'x' });
    expect(await complete(['memories', 'cat', 'named-store', ''])).toEqual([[memory.id, 'notes.md']]);
  });

  it('after the name was completed, one request: the name comes from the cached parent list; a repeat sends none', async () => {
    const vault = await created('/v1/vaults', { name: 'cached-vault' });
    const cred = await created(`/v1/vaults/${vault.id}/credentials`, { name: 'api key', type: 'static_bearer', value: 'not-shown' });
    const env = emuEnv(t.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    expect(await complete(['vaults', 'credentials', 'list', 'cached-v'], env)).toEqual([['cached-vault', vault.id]]);
    const before = await requestCount(t.emu);
    expect(await complete(['vaults', 'credentials', 'delete', 'cached-vault', ''], env)).toEqual([[cred.id, 'api key']]);
    expect(await requestCount(t.emu)).toBe(before + 1);
    expect(await complete(['vaults', 'credentials', 'get', 'cached-vault', ''], env)).toEqual([[cred.id, 'api key']]);
    expect(await requestCount(t.emu)).toBe(before + 1);
  });

  it('with a cold cache, one extra request at most: the parent list, then the children', async () => {
    const store = await created('/v1/memory-stores', { name: 'cold-store' });
    const memory = await created(`/v1/memory-stores/${store.id}/memories`, { path: 'cold.md', content: 'x' });
    const before = await requestCount(t.emu);
    expect(await complete(['memories', 'get', 'cold-store', ''])).toEqual([[memory.id, 'cold.md']]);
    expect(await requestCount(t.emu)).toBe(before + 2);
  });

  it('an ID is used as it is, and a name nothing has (or two share) completes to nothing, silently', async () => {
    const vault = await created('/v1/vaults', { name: 'twin' });
    await created('/v1/vaults', { name: 'twin' });
    const cred = await created(`/v1/vaults/${vault.id}/credentials`, { name: 'by id', type: 'static_bearer', value: 'not-shown' });
    expect(await complete(['vaults', 'credentials', 'delete', vault.id, ''])).toEqual([[cred.id, 'by id']]);
    expect(await complete(['vaults', 'credentials', 'delete', 'twin', ''])).toEqual([]);
    expect(await complete(['vaults', 'credentials', 'delete', 'no-such-vault', ''])).toEqual([]);
  });

  it('a service that refuses the parent list (429) gets no other request: nothing, and no message', async () => {
    const before = await requestCount(failing.emu);
    const r = await svc(['__complete', '--', 'vaults', 'credentials', 'delete', 'some-vault', ''], { env: emuEnv(failing.emu) });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await requestCount(failing.emu)).toBe(before + 1);
  });
});
