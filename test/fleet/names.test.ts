import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { agents } from '../../src/api/resources';
import { environments } from '../../src/api/environments';
import { UsageError } from '../../src/runtime/errors';
import { resolveId } from '../../src/selection/names';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const client = () => new ApiClient({ baseUrl: t.emu.url, credential: t.emu.apiKey, apiVersion: '2026-09-01-beta', userAgent: 'svc/test', maxRetries: 0 });

describe('names for IDs', () => {
  it('an ID is tried first and costs one request', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'by-id', model: 'm' } })).body;
    const before = await requestCount(t.emu);
    expect(await resolveId(client(), agents, 'agent', a.id)).toBe(a.id);
    expect((await requestCount(t.emu)) - before).toBe(1);
  });

  it('a name not found as an ID is looked up by exact name, for environments as for agents', async () => {
    const e = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'staging-names', config: { type: 'cloud' } } })).body;
    await call(t.emu, 'POST', '/v1/environments', { body: { name: 'staging-names-2', config: { type: 'cloud' } } });
    expect(await resolveId(client(), environments, 'environment', 'staging-names')).toBe(e.id);
  });

  it('two resources with the name are a usage error listing both; none keeps the 404', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'dup-name', model: 'm' } })).body;
    const b = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'dup-name', model: 'm' } })).body;
    const err = await resolveId(client(), agents, 'agent', 'dup-name').catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain(a.id);
    expect(err.message).toContain(b.id);
    await expect(resolveId(client(), agents, 'agent', 'no-such-name')).rejects.toMatchObject({ status: 404 });
  });
});
