// Rules proved here: R-CONF-2, R-CONF-16, R-CONF-22..26 — agent and session configuration over HTTP;
// write-only MCP headers are read from the emulator's store, since the API never returns them.
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession } from '../helpers/sse';

const t = useEmulator();
const SERVER = { type: 'url', name: 'gh', url: 'https://mcp.example/gh' };

/** The stored headers of an agent's MCP server, by identity (write-only: never in a response). */
const agentHeaders = (id: string, server: Record<string, string> = SERVER): Record<string, string> | undefined =>
  t.emu.collection<any>('agents', 'agent', 'agent').get(id)?._mcp_headers[JSON.stringify([server.name, server.type, server.url])];
const sessionHeaders = (id: string, server: Record<string, string> = SERVER): Record<string, string> | undefined =>
  t.emu.collection<any>('sessions', 'sesn', 'session').get(id)?._mcp_headers?.[JSON.stringify([server.name, server.type, server.url])];

async function agentWith(headers: Record<string, string>): Promise<string> {
  const r = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'mcp', model: 'm', mcp_servers: [{ ...SERVER, headers }] } });
  expect(r.status).toBe(201);
  return r.body.id;
}
const patchServers = (id: string, servers: unknown[]) => call(t.emu, 'PATCH', `/v1/agents/${id}`, { body: { mcp_servers: servers } });

describe('emulator: MCP server headers (configuration rule 7)', () => {
  it('R-CONF-22 headers are never returned, on the agent, its versions, or a session override', async () => {
    const id = await agentWith({ 'X-Team': 'core' });
    for (const path of [`/v1/agents/${id}`, `/v1/agents/${id}?version=1`, '/v1/agents?page_size=1000']) {
      const r = await call(t.emu, 'GET', path);
      expect(JSON.stringify(r.body)).not.toContain('X-Team');
    }
    const s = await createSession(t.emu, { agent_overrides: { mcp_servers: [{ ...SERVER, headers: { 'X-Session': 'one' } }] } });
    expect(s.agent_overrides.mcp_servers).toEqual([SERVER]);
    expect(JSON.stringify((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).body)).not.toContain('X-Session');
    expect(sessionHeaders(s.id)).toEqual({ 'X-Session': 'one' });
  });

  it('R-CONF-23 omitted or empty headers keep the stored ones while name, type and URL are unchanged', async () => {
    const id = await agentWith({ 'X-Team': 'core' });
    expect((await patchServers(id, [SERVER])).status).toBe(200);
    expect(agentHeaders(id)).toEqual({ 'X-Team': 'core' });
    await patchServers(id, [{ ...SERVER, headers: {} }]);
    expect(agentHeaders(id)).toEqual({ 'X-Team': 'core' });
    // A server whose URL changed is another server: nothing is carried over.
    const moved = { ...SERVER, url: 'https://mcp.example/other' };
    await patchServers(id, [moved]);
    expect(agentHeaders(id, moved)).toEqual({});
    await patchServers(id, [SERVER]);
    expect(agentHeaders(id)).toEqual({});
  });

  it("R-CONF-23 a renamed server with the same URL does not inherit the old name's headers", async () => {
    const id = await agentWith({ 'X-Team': 'core' });
    const renamed = { ...SERVER, name: 'github' };
    await patchServers(id, [renamed]);
    expect(agentHeaders(id, renamed)).toEqual({});
  });

  it('R-CONF-24 non-empty headers replace the stored ones as a whole (no key-by-key merge)', async () => {
    const id = await agentWith({ 'X-Team': 'core', 'X-Region': 'eu' });
    const r = await patchServers(id, [{ ...SERVER, headers: { 'X-Trace': 'on' } }]);
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain('X-Trace');
    expect(agentHeaders(id)).toEqual({ 'X-Trace': 'on' });
  });

  it('R-CONF-25 a header whose value is the empty string deletes that key', async () => {
    const id = await agentWith({ 'X-Team': 'core', 'X-Empty': '' });
    expect(agentHeaders(id)).toEqual({ 'X-Team': 'core' });
    await patchServers(id, [{ ...SERVER, headers: { 'X-Team': '', 'X-Region': 'eu' } }]);
    expect(agentHeaders(id)).toEqual({ 'X-Region': 'eu' });
    // The only way to clear them all: `{}` keeps, a lone "" value deletes.
    await patchServers(id, [{ ...SERVER, headers: { 'X-Region': '' } }]);
    expect(agentHeaders(id)).toEqual({});
  });

  it('R-CONF-26 header names differing only in case are rejected on agents and on session overrides, nothing stored', async () => {
    const id = await agentWith({ 'X-Team': 'core' });
    const bad = await patchServers(id, [{ ...SERVER, headers: { 'X-Team': 'a', 'x-team': 'b' } }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.mcp_servers[0].headers' });
    expect(agentHeaders(id)).toEqual({ 'X-Team': 'core' });
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.version).toBe(1);
    const s = await createSession(t.emu);
    const r = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { mcp_servers: [{ ...SERVER, headers: { A: '1', a: '2' } }] } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.agent_overrides.mcp_servers[0].headers' });
  });

  it('R-CONF-23 R-CONF-24 session overrides follow the same rules across PATCHes', async () => {
    const s = await createSession(t.emu, { agent_overrides: { mcp_servers: [{ ...SERVER, headers: { A: '1', B: '2' } }] } });
    const patch = (servers: unknown[]) => call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { mcp_servers: servers } } });
    expect((await patch([SERVER])).status).toBe(200);
    expect(sessionHeaders(s.id)).toEqual({ A: '1', B: '2' });
    const r = await patch([{ ...SERVER, headers: { C: '3' } }]);
    expect(JSON.stringify(r.body)).not.toContain('"C"');
    expect(sessionHeaders(s.id)).toEqual({ C: '3' });
  });
});

describe('emulator: agent_overrides and model settings', () => {
  it("R-CONF-2 a session's agent_overrides change that session, not the agent", async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'base', model: 'm-base', system: 'agent prompt' } })).body;
    const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.id, agent_overrides: { system: 'session prompt', model: 'm-over' } } }))
      .body;
    expect(s.agent_overrides).toEqual({ system: 'session prompt', model: 'm-over' });
    const p = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { system: 'patched prompt' } } });
    expect(p.body.agent_overrides).toEqual({ system: 'patched prompt' });
    const after = (await call(t.emu, 'GET', `/v1/agents/${agent.id}`)).body;
    expect(after).toMatchObject({ version: 1, system: 'agent prompt', model: 'm-base' });
    expect(after.updated_at).toBe(agent.updated_at);
    // Another session of the same agent sees the agent's own configuration.
    const other = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.id } })).body;
    expect(other.agent_overrides).toEqual({});
  });

  it('R-CONF-16 model.reasoning_effort accepts max, on an agent and in a session override', async () => {
    const a = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'effort', model: { id: 'm-1', reasoning_effort: 'max' } } });
    expect(a.status).toBe(201);
    expect(a.body.model).toEqual({ id: 'm-1', reasoning_effort: 'max' });
    const u = await call(t.emu, 'PATCH', `/v1/agents/${a.body.id}`, { body: { model: { id: 'm-1', reasoning_effort: 'low' } } });
    expect(u.body.model.reasoning_effort).toBe('low');
    const s = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a.body.id, agent_overrides: { model: { id: 'm-1', reasoning_effort: 'max' } } } });
    expect(s.status).toBe(201);
    expect(s.body.agent_overrides.model.reasoning_effort).toBe('max');
  });
});
