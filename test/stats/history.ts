/** Hand-built histories for the stats tests, appended to emulator sessions through its admin path. */
import { expect } from 'vitest';
import type { Emulator } from '../../src/emulator/server';
import { call } from '../helpers/emulator';

export const T0 = Date.parse('2026-03-02T10:00:00.000Z');
/** The time `s` seconds after T0. */
export const at = (s: number) => new Date(T0 + s * 1000).toISOString();

export type Ev = Record<string, unknown>;
let n = 0;
/** One event at `s` seconds; `extra` sets `data`, `session_thread_id`, `id`. */
export const ev = (s: number, type: string, extra: Ev = {}): Ev => ({ id: extra.id ?? `sevt_h${++n}`, type, processed_at: at(s), ...extra });

export async function agent(emu: Emulator, name: string): Promise<string> {
  const r = await call(emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } });
  expect(r.status).toBe(201);
  return r.body.id;
}

export async function session(emu: Emulator, agentId: string, metadata: Record<string, string> = {}): Promise<string> {
  const r = await call(emu, 'POST', '/v1/sessions', { body: { agent_id: agentId, metadata } });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** Appends `items` to the session's history and sets `changes` on the session (its stop reason, …). */
export async function append(emu: Emulator, sessionId: string, items: Ev[], changes: Ev = {}): Promise<void> {
  const r = await call(emu, 'POST', `/_emulator/sessions/${sessionId}/history`, { body: { items, session: changes } });
  expect(r.status).toBe(204);
}

/**
 * A session's day: two turns, streamed and unstreamed model requests, a tool that fails once, a custom tool with an
 * error result, a confirmation waited on for 5 s, two session errors, an interrupt, and a child thread's work.
 */
export function busyHistory(): Ev[] {
  return [
    ev(0, 'user.message', { data: { content: [{ type: 'text', text: 'go' }] } }),
    ev(0, 'session.status', { data: { status: 'running' } }),
    ev(1, 'agent.model_started', { data: { model: 'm' } }),
    ev(1.2, 'agent.thinking_started'),
    ev(2, 'agent.thinking', { data: { content: [] } }),
    ev(2, 'agent.tool_use', { id: 'call_bash1', data: { name: 'bash', input: {}, permission: 'allow' } }),
    ev(2.5, 'agent.tool_started', { data: { event_id: 'call_bash1' } }),
    ev(2.6, 'agent.tool_result', { data: { event_id: 'call_bash1', tool_result: { content: [] } } }),
    ev(3, 'agent.model_started', { data: { model: 'm' } }),
    ev(3.5, 'agent.message_started'),
    ev(4, 'agent.tool_use', { id: 'call_bash2', data: { name: 'bash', input: {}, permission: 'allow' } }),
    ev(4, 'agent.tool_started', { data: { event_id: 'call_bash2' } }),
    ev(4.3, 'agent.tool_result', { data: { event_id: 'call_bash2', tool_result: { content: [] }, is_error: true } }),
    // A child thread: its model request's first fragment after 0.4 s, and a tool of its own (no start: no duration).
    ev(5, 'session.thread_created', { session_thread_id: 'th_child', data: { thread_id: 'th_child', parent_thread_id: null, agent_name: 'w' } }),
    ev(5, 'session.thread_status', { session_thread_id: 'th_child', data: { thread_id: 'th_child', status: 'running' } }),
    ev(5, 'agent.model_started', { session_thread_id: 'th_child', data: { model: 'm' } }),
    ev(5.4, 'agent.message_started', { session_thread_id: 'th_child' }),
    ev(6, 'agent.tool_use', { id: 'call_grep', session_thread_id: 'th_child', data: { name: 'grep', input: {}, permission: 'allow' } }),
    ev(6.5, 'agent.tool_result', { session_thread_id: 'th_child', data: { event_id: 'call_grep', tool_result: { content: [] } } }),
    ev(7, 'session.thread_status', { session_thread_id: 'th_child', data: { thread_id: 'th_child', status: 'idle' } }),
    // A confirmation: the session stops for it at 8 and is answered at 13.
    ev(8, 'agent.tool_use', { id: 'call_deploy', data: { name: 'deploy', input: {}, permission: 'ask' } }),
    ev(8, 'session.status', { data: { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['call_deploy'] } } }),
    ev(13, 'user.tool_confirmation', { data: { event_id: 'call_deploy', result: 'allow' } }),
    ev(13, 'session.status', { data: { status: 'running' } }),
    ev(13, 'agent.tool_started', { data: { event_id: 'call_deploy' } }),
    ev(14, 'agent.tool_result', { data: { event_id: 'call_deploy', tool_result: { content: [] } } }),
    ev(14, 'session.error', { data: { error_type: 'model_error', message: 'x' } }),
    ev(15, 'session.status', { data: { status: 'idle', stop_reason: { type: 'error' } } }),
    // Second turn, the real service's spellings: an unstreamed request, an MCP tool, a custom tool answered with an error.
    ev(100, 'session.status_running'),
    ev(101, 'agent.model_started', { data: { model: 'm' } }),
    ev(102, 'agent.mcp_tool_use', { id: 'call_mcp', data: { name: 'search', mcp_server_name: 'docs', input: {}, permission: 'allow' } }),
    ev(102, 'agent.tool_started', { data: { event_id: 'call_mcp' } }),
    ev(102.2, 'agent.mcp_tool_result', { data: { mcp_tool_use_id: 'call_mcp', content: [] } }),
    ev(103, 'agent.custom_tool_use', { id: 'call_lookup', data: { name: 'lookup', input: {} } }),
    ev(103, 'session.status', { data: { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['call_lookup'] } } }),
    ev(105, 'user.custom_tool_result', { data: { event_id: 'call_lookup', content: [], is_error: true } }),
    ev(105, 'session.status', { data: { status: 'running' } }),
    ev(106, 'user.interrupt', { epoch: '1', data: {} }),
    ev(106, 'session.error', { data: { error_type: 'timeout', message: 'y' } }),
    ev(110, 'session.status_idle', { data: { stop_reason: { type: 'interrupted' } } }),
  ];
}
