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
  /** Set on the `user.interrupt` acknowledgement (API-NOTES: interrupt acknowledgement event). */
  epoch?: string;
  data?: Record<string, unknown>;
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
export type StopReason = { type: (typeof STOP_REASONS)[number] | string; event_ids?: string[] };

/** SSE frame names besides event types. */
export const CONTROL_FRAME = 'control';
export const ERROR_FRAME = 'error';
export const HEARTBEAT_LINE = ': hb';
/** Control frame `data`: `{cursor, reason}` (API-NOTES: stream control frame). */
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
