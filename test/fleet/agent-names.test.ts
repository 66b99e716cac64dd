import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { AgentNames } from '../../src/selection/agent-names';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const client = () => new ApiClient({ baseUrl: t.emu.url, credential: t.emu.apiKey, apiVersion: '2026-09-01-beta', userAgent: 'svc/test', maxRetries: 0 });

describe('agent names for rows', () => {
  it('one read per agent however many rows name it, and none again on the next page', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'reviewer', model: 'm' } })).body;
    const b = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'triager', model: 'm' } })).body;
    const names = new AgentNames(client());
    const before = await requestCount(t.emu);
    await names.load([a.id, b.id, a.id, a.id, b.id, undefined]);
    expect((await requestCount(t.emu)) - before).toBe(2);
    expect(names.nameOf(a.id)).toBe('reviewer');
    expect(names.nameOf(b.id)).toBe('triager');
    await Promise.all([names.load([a.id, b.id]), names.load([b.id])]);
    expect((await requestCount(t.emu)) - before).toBe(2);
  });

  it('an agent that cannot be read has no name and is not read again', async () => {
    const names = new AgentNames(client());
    const before = await requestCount(t.emu);
    await names.load(['agent_gone', 'agent_gone']);
    await names.load(['agent_gone']);
    expect(names.nameOf('agent_gone')).toBeUndefined();
    expect((await requestCount(t.emu)) - before).toBe(1);
  });
});
