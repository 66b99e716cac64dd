/** A hand-built history for the trace, diff and grep tests: nested threads, a tool wait, an interrupt, an error. */
import { ev, type Ev } from '../stats/history';

export const CHILD = 'sthr_child1';
export const GRANDCHILD = 'sthr_child2';

/**
 * Turn 1 (0 s to 16 s): a model request (first fragment after 0.3 s) asks for bash (run 2.5 s to 3 s), the next
 * for a delegation; the delegation starts a child thread, which starts a grandchild of its own; a confirmation of
 * `deploy` waited on 9 s to 14 s; a model error ends the turn. Turn 2 (100 s to 106 s): a custom tool answered
 * after 2 s, then an interrupt.
 */
export function tracedHistory(): Ev[] {
  return [
    ev(0, 'user.message', { data: { content: [{ type: 'text', text: 'deploy the release' }] } }),
    ev(0, 'session.status', { id: 'sevt_run1', data: { status: 'running' } }),
    ev(1, 'agent.model_started', { data: { model: 'scripted-1' } }),
    ev(1.3, 'agent.message_started'),
    ev(2, 'agent.message', { data: { content: [{ type: 'text', text: 'Checking the build first.' }] } }),
    ev(2, 'agent.tool_use', { id: 'call_bash', data: { name: 'bash', input: { command: 'make check' }, permission: 'allow' } }),
    ev(2.5, 'agent.tool_started', { data: { event_id: 'call_bash' } }),
    ev(3, 'agent.tool_result', { data: { event_id: 'call_bash', tool_result: { content: [{ type: 'text', text: 'all 12 checks passed' }] } } }),
    ev(3.5, 'agent.model_started', { data: { model: 'scripted-1' } }),
    ev(4, 'agent.tool_use', { id: 'call_delegate', data: { name: 'delegate', input: { task: 'notes' }, permission: 'allow' } }),
    ev(4, 'agent.tool_started', { data: { event_id: 'call_delegate' } }),
    ev(4.5, 'session.thread_created', { session_thread_id: CHILD, data: { thread_id: CHILD, parent_thread_id: null, agent_name: 'writer' } }),
    ev(4.5, 'session.thread_status', { session_thread_id: CHILD, data: { thread_id: CHILD, status: 'running' } }),
    ev(5, 'agent.model_started', { session_thread_id: CHILD, data: { model: 'scripted-1' } }),
    ev(5.2, 'agent.message_started', { session_thread_id: CHILD }),
    ev(5.5, 'agent.tool_use', { id: 'call_sub', session_thread_id: CHILD, data: { name: 'spawn', input: {}, permission: 'allow' } }),
    ev(5.6, 'session.thread_created', { session_thread_id: GRANDCHILD, data: { thread_id: GRANDCHILD, parent_thread_id: CHILD, agent_name: 'checker' } }),
    ev(5.6, 'session.thread_status', { session_thread_id: GRANDCHILD, data: { thread_id: GRANDCHILD, status: 'running' } }),
    ev(5.7, 'agent.model_started', { session_thread_id: GRANDCHILD, data: { model: 'scripted-1' } }),
    ev(6, 'agent.message', { session_thread_id: GRANDCHILD, data: { content: [{ type: 'text', text: 'release notes look fine' }] } }),
    ev(6.1, 'session.thread_status', { session_thread_id: GRANDCHILD, data: { thread_id: GRANDCHILD, status: 'idle' } }),
    ev(6.2, 'agent.tool_result', { session_thread_id: CHILD, data: { event_id: 'call_sub', tool_result: { content: [] } } }),
    ev(6.5, 'agent.message', { session_thread_id: CHILD, data: { content: [{ type: 'text', text: 'Release notes written.' }] } }),
    ev(7, 'session.thread_status', { session_thread_id: CHILD, data: { thread_id: CHILD, status: 'idle' } }),
    ev(7.5, 'agent.tool_result', { data: { event_id: 'call_delegate', tool_result: { content: [] } } }),
    ev(8, 'agent.model_started', { data: { model: 'scripted-1' } }),
    ev(9, 'agent.tool_use', { id: 'call_deploy', data: { name: 'deploy', input: { target: 'prod' }, permission: 'ask' } }),
    ev(9, 'session.status', { data: { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['call_deploy'] } } }),
    ev(14, 'user.tool_confirmation', { data: { event_id: 'call_deploy', result: 'allow' } }),
    ev(14, 'session.status', { data: { status: 'running' } }),
    ev(14, 'agent.tool_started', { data: { event_id: 'call_deploy' } }),
    ev(15, 'agent.tool_result', {
      data: { event_id: 'call_deploy', tool_result: { content: [{ type: 'text', text: 'deploy failed: quota' }] }, is_error: true },
    }),
    ev(16, 'session.error', { data: { error_type: 'model_error', message: 'the model stopped answering' } }),
    ev(16, 'session.status', { data: { status: 'idle', stop_reason: { type: 'error' } } }),
    ev(100, 'user.message', { data: { content: [{ type: 'text', text: 'look it up' }] } }),
    ev(100, 'session.status', { id: 'sevt_run2', data: { status: 'running' } }),
    ev(101, 'agent.model_started', { data: { model: 'scripted-1' } }),
    ev(102, 'agent.custom_tool_use', { id: 'call_lookup', data: { name: 'lookup', input: { key: 'quota' } } }),
    ev(102, 'session.status', { data: { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['call_lookup'] } } }),
    ev(104, 'user.custom_tool_result', { data: { event_id: 'call_lookup', content: [{ type: 'text', text: 'quota: 10' }] } }),
    ev(104, 'session.status', { data: { status: 'running' } }),
    ev(105, 'agent.model_started', { data: { model: 'scripted-1' } }),
    ev(105, 'user.interrupt', { epoch: '1', data: {} }),
    ev(106, 'session.status', { data: { status: 'idle', stop_reason: { type: 'interrupted' } } }),
  ];
}
