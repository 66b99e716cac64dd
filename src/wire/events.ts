/** Event types, stream frame names and session vocabulary of the spec ("Events", "Event stream"), shared by client and emulator. */

export const USER_EVENT_TYPES = ['user.message', 'user.interrupt', 'user.tool_confirmation', 'user.custom_tool_result', 'user.tool_result'] as const;
export const AGENT_EVENT_TYPES = [
  'agent.message',
  'agent.thinking',
  'agent.tool_use',
  'agent.tool_result',
  'agent.custom_tool_use',
  'agent.delta',
  'agent.model_started',
  'agent.tool_started',
  'agent.thinking_started',
  'agent.message_started',
] as const;
export const SESSION_EVENT_TYPES = ['session.status', 'session.error', 'session.thread_created', 'session.thread_status', 'session.updated'] as const;

export type UserEventType = (typeof USER_EVENT_TYPES)[number];
export type AgentEventType = (typeof AGENT_EVENT_TYPES)[number];
export type SessionEventType = (typeof SESSION_EVENT_TYPES)[number];
export type EventType = UserEventType | AgentEventType | SessionEventType;

/** An event object as history and stream frames carry it (spec: Event object). */
export interface SessionEvent {
  id: string;
  type: string;
  processed_at: string;
  session_thread_id?: string;
  /** Set on the `user.interrupt` acknowledgement (docs/service.md: interrupt acknowledgement event). */
  epoch?: string;
  data?: Record<string, unknown>;
}

/** A content block (docs/service.md: `user.message` blocks; `agent.message` text). */
export interface ContentBlock {
  type?: string;
  text?: string;
  file_id?: string;
  [member: string]: unknown;
}

/**
 * The payload (`data`) of each event type the client reads (docs/service.md "Event payloads"), in the spec's shape
 * (canonicalEvent). Every member is optional and unknown ones are kept: a reader checks what it relies on.
 */
export interface EventPayloads {
  'user.message': { content?: ContentBlock[] };
  'user.interrupt': { expected_control_epoch?: string };
  'user.tool_confirmation': { event_id?: string; result?: 'allow' | 'deny' | (string & {}); deny_message?: string };
  'user.custom_tool_result': { event_id?: string; content?: ContentBlock[]; is_error?: boolean };
  'user.tool_result': { event_id?: string; content?: ContentBlock[]; is_error?: boolean };
  'agent.message': { content?: ContentBlock[] };
  'agent.thinking': { content?: ContentBlock[] };
  'agent.tool_use': { name?: string; input?: unknown; permission?: 'allow' | 'ask' | (string & {}); mcp_server_name?: string };
  'agent.custom_tool_use': { name?: string; input?: unknown };
  'agent.tool_result': { event_id?: string; tool_result?: { content?: unknown[]; structured_content?: unknown[] }; is_error?: boolean };
  'agent.model_started': { model?: string };
  'agent.tool_started': { event_id?: string };
  'agent.thinking_started': Record<never, never>;
  'agent.message_started': Record<never, never>;
  'session.status': { status?: string; stop_reason?: StopReason | null };
  'session.error': { error_type?: string; message?: string; mcp_server_name?: string };
  'session.thread_created': { thread_id?: string; parent_thread_id?: string | null; agent_name?: string };
  'session.thread_status': { thread_id?: string; status?: string };
  'session.updated': { title?: string };
}

/** The payload of `e` read as its type's, when `e` is of that type (an absent `data` reads as `{}`); else undefined. */
export function payloadOf<K extends keyof EventPayloads>(e: SessionEvent, type: K): (EventPayloads[K] & Record<string, unknown>) | undefined {
  return e.type === type ? ((e.data ?? {}) as EventPayloads[K] & Record<string, unknown>) : undefined;
}

/** `agent.delta` is live-only: it carries no `id` nor `processed_at` and is never in history. */
export interface DeltaEvent {
  type: 'agent.delta';
  session_thread_id?: string;
  data: { kind: 'text' | 'thinking'; delta: string } | { kind: 'tool_use'; tool_use_id: string; input_delta: string; name?: string; mcp?: unknown };
}

export const INPUT_MODES = ['next_turn', 'steer'] as const;
export type InputMode = (typeof INPUT_MODES)[number];

export const SESSION_STATUSES = ['idle', 'running', 'rescheduling', 'terminated'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const STOP_REASONS = ['end_turn', 'requires_action', 'interrupted', 'error', 'max_steps'] as const;
export type StopReason = { type: (typeof STOP_REASONS)[number] | string; event_ids?: readonly string[] };

/** SSE frame names besides event types. */
export const CONTROL_FRAME = 'control';
export const ERROR_FRAME = 'error';
export const HEARTBEAT_LINE = ': hb';
/** Control frame `data`: `{cursor, reason}` (docs/service.md: stream control frame). */
export const CONTROL_REASONS = ['start', 'resume', 'now'] as const;
export type ControlReason = (typeof CONTROL_REASONS)[number];
export interface ControlFrameData {
  cursor: string;
  reason: ControlReason;
}
/** The cursor value that asks for live events only. */
export const CURSOR_NOW = 'now';
/** The cursor before the first event of any stream. */
export const CURSOR_START = '0';

/** The prompt an empty message wakes the agent with (spec: Send events to a session). */
export const DEFAULT_PROMPT = 'Continue.';
