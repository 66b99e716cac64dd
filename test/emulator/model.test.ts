// Rules proved here (the scripted model, docs/behaviour.md "The emulator"): R-SESS-8, R-SESS-26, R-EVT-1, R-EVT-2, R-EVT-3, R-EVT-4, R-EVT-6, R-EVT-7,
// R-EVT-8, R-EVT-9, R-EVT-10, R-EVT-11, R-EVT-12, R-EVT-16, R-EVT-17, R-EVT-21, R-EVT-22, R-ERR-22, R-EVT-13
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, history, send, SseClient, waitIdleEvents } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });

const types = (h: any[]) => h.map((e) => e.type);

describe('emulator: the scripted model', () => {
  it('R-EVT-8 R-EVT-17 R-SESS-26 plain text streams thinking then a message and ends the turn idle with end_turn', async () => {
    const s = await createSession(t.emu);
    const stream = await SseClient.open(t.emu, `/v1/sessions/${s.id}/events/stream?include_deltas=true`);
    await send(t.emu, s.id, 'hello there');
    await stream.waitFor((f) => f.event === 'session.status' && f.json.data.status === 'idle');
    stream.close();
    const seen = stream.events.map((f) => f.event);
    expect(seen.filter((x) => x !== 'agent.delta')).toEqual([
      'user.message',
      'session.status',
      'agent.model_started',
      'agent.thinking_started',
      'agent.thinking',
      'agent.message_started',
      'agent.message',
      'session.status',
    ]);
    // Deltas come after the *_started event of their kind and before the complete event.
    const firstText = seen.indexOf('agent.message_started');
    const kinds = stream.events.filter((f) => f.event === 'agent.delta').map((f) => f.json.data.kind);
    expect(kinds).toContain('thinking');
    expect(kinds).toContain('text');
    expect(kinds.every((k) => ['text', 'thinking', 'tool_use'].includes(k))).toBe(true);
    expect(seen.slice(firstText + 1, seen.indexOf('agent.message')).every((x) => x === 'agent.delta')).toBe(true);
    const msg = stream.events.find((f) => f.event === 'agent.message')!.json;
    expect(msg.data.content).toEqual([{ type: 'text', text: 'You said: hello there' }]);
    const text = stream.events
      .filter((f) => f.event === 'agent.delta' && f.json.data.kind === 'text')
      .map((f) => f.json.data.delta)
      .join('');
    expect(text).toBe('You said: hello there');
    const idle = stream.events[stream.events.length - 1].json;
    expect(idle.data).toEqual({ status: 'idle', stop_reason: { type: 'end_turn' } });
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).body.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('R-EVT-1 every history event has id, processed_at and type; data is omitted when empty', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, 'hi');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    for (const e of h) {
      expect(typeof e.id).toBe('string');
      expect(Number.isNaN(Date.parse(e.processed_at))).toBe(false);
      expect(typeof e.type).toBe('string');
    }
    expect(h.find((e) => e.type === 'agent.message_started')).not.toHaveProperty('data');
    expect(new Set(h.map((e) => e.id)).size).toBe(h.length);
  });

  it('R-SESS-8 an empty message wakes the agent with "Continue."', async () => {
    const s = await createSession(t.emu);
    const r = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.message', data: { content: [] } }] } });
    expect(r.status).toBe(202);
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.find((e) => e.type === 'agent.message').data.content[0].text).toBe('You said: Continue.');
  });

  it('/echo replies its text streamed word by word', async () => {
    const s = await createSession(t.emu);
    const stream = await SseClient.open(t.emu, `/v1/sessions/${s.id}/events/stream?include_deltas=true`);
    await send(t.emu, s.id, '/echo one two three');
    await stream.waitFor((f) => f.event === 'session.status' && f.json.data.status === 'idle');
    stream.close();
    expect(stream.events.filter((f) => f.event === 'agent.delta').map((f) => f.json.data.delta)).toEqual(['one ', 'two ', 'three']);
    expect(stream.events.find((f) => f.event === 'agent.message')!.json.data.content[0].text).toBe('one two three');
  });

  it('/long N streams N text deltas before the final message', async () => {
    const s = await createSession(t.emu);
    const stream = await SseClient.open(t.emu, `/v1/sessions/${s.id}/events/stream?include_deltas=true`);
    await send(t.emu, s.id, '/long 1000');
    await stream.waitFor((f) => f.event === 'session.status' && f.json.data.status === 'idle');
    stream.close();
    expect(stream.events.filter((f) => f.event === 'agent.delta')).toHaveLength(1000);
  });

  it('R-EVT-10 R-EVT-11 R-EVT-12 R-EVT-6 R-EVT-7 R-EVT-16 /tool streams tool_use deltas, then tool_use, tool_started and an emulator tool_result', async () => {
    const s = await createSession(t.emu);
    const stream = await SseClient.open(t.emu, `/v1/sessions/${s.id}/events/stream?include_deltas=true`);
    await send(t.emu, s.id, '/tool bash {"command":"ls -la /tmp"}');
    await stream.waitFor((f) => f.event === 'session.status' && f.json.data.status === 'idle');
    stream.close();
    const use = stream.events.find((f) => f.event === 'agent.tool_use')!.json;
    expect(use.data).toEqual({ name: 'bash', input: { command: 'ls -la /tmp' }, permission: 'allow' });
    const deltas = stream.events.filter((f) => f.event === 'agent.delta' && f.json.data.kind === 'tool_use').map((f) => f.json.data);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.tool_use_id === use.id)).toBe(true);
    expect(deltas[0].name).toBe('bash');
    expect(deltas.slice(1).some((d) => 'name' in d)).toBe(false);
    expect(JSON.parse(deltas.map((d) => d.input_delta).join(''))).toEqual({ command: 'ls -la /tmp' });
    const seq = stream.events.map((f) => f.event);
    expect(seq.indexOf('agent.tool_started')).toBeGreaterThan(seq.indexOf('agent.tool_use'));
    const result = stream.events.find((f) => f.event === 'agent.tool_result')!.json;
    expect(result.data.event_id).toBe(use.id);
    expect(result.data.tool_result.content[0].type).toBe('text');
    expect(result.data.tool_result.structured_content[0].type).toBe('text');
  });

  it('R-EVT-21 R-ERR-22 /error TYPE writes session.error with that error_type, then idle with stop reason error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error rate_limited');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    const err = h.find((e) => e.type === 'session.error');
    expect(err.data.error_type).toBe('rate_limited');
    expect(typeof err.data.message).toBe('string');
    expect(h[h.length - 1].data).toEqual({ status: 'idle', stop_reason: { type: 'error' } });
  });

  it('R-EVT-23 /error with an MCP type carries mcp_server_name', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error mcp_connection_failed');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.find((e) => e.type === 'session.error').data.mcp_server_name).toBeTruthy();
  });

  it('/artifact NAME delivers an artifact through the artifacts module', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/artifact report.txt');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.find((e) => e.type === 'agent.message').data.content[0].text).toMatch(/^Delivered artifact report\.txt/);
    const list = await call(t.emu, 'GET', `/v1/artifacts?session_id=${s.id}`);
    expect(list.status).toBe(200);
    expect(list.body.items.some((a: any) => JSON.stringify(a).includes('report.txt'))).toBe(true);
  });

  it('R-EVT-2 R-EVT-3 R-EVT-4 every type the model writes is one of the spec types', async () => {
    const { USER_EVENT_TYPES, AGENT_EVENT_TYPES, SESSION_EVENT_TYPES } = await import('../../src/wire/events');
    const known = new Set<string>([...USER_EVENT_TYPES, ...AGENT_EVENT_TYPES, ...SESSION_EVENT_TYPES]);
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 2');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(types(h).filter((x) => !known.has(x))).toEqual([]);
  });
});

describe('emulator: MCP tools of the scripted model', () => {
  const m = useEmulator({ modelStepMs: 1 });
  it('R-EVT-13 R-EVT-12 an MCP tool call carries mcp on its first tool_use fragment and mcp_server_name on the event; the platform answers it', async () => {
    const agent = await call(m.emu, 'POST', '/v1/agents', {
      body: { name: 'mcp', model: 'scripted-1', mcp_servers: [{ type: 'url', name: 'docs', url: 'https://mcp.example.com' }] },
    });
    expect(agent.status).toBe(201);
    const s = (await call(m.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.body.id } })).body;
    const sub = await SseClient.open(m.emu, `/v1/sessions/${s.id}/events/stream?include_deltas=true`);
    await send(m.emu, s.id, '/mcp docs search {"q":"streams"}');
    await sub.waitFor((f) => f.json.type === 'session.status' && f.json.data.status === 'idle', 'idle');
    sub.close();
    const fragments = sub.events.map((f) => f.json).filter((e) => e.type === 'agent.delta' && e.data.kind === 'tool_use');
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments[0].data).toMatchObject({ name: 'search', mcp: { server_name: 'docs' } });
    for (const f of fragments.slice(1)) expect(f.data.mcp).toBeUndefined();
    const h = await history(m.emu, `/v1/sessions/${s.id}`);
    const use = h.find((e) => e.type === 'agent.tool_use');
    expect(use.data).toMatchObject({ name: 'search', input: { q: 'streams' }, mcp_server_name: 'docs' });
    expect(h.find((e) => e.type === 'agent.tool_result').data.event_id).toBe(use.id);
  });

  it('an MCP server the agent does not have ends the turn in session.error mcp_connection_failed naming it', async () => {
    const s = await createSession(m.emu);
    await send(m.emu, s.id, '/mcp nowhere search {}');
    const h = await waitIdleEvents(m.emu, s.id, 1);
    expect(h.find((e) => e.type === 'session.error').data).toMatchObject({ error_type: 'mcp_connection_failed', mcp_server_name: 'nowhere' });
  });
});
