import { UsageError } from '../runtime/errors';
import { AGENT_EVENT_TYPES, payloadOf, SESSION_EVENT_TYPES, USER_EVENT_TYPES, type SessionEvent } from '../wire/events';

/** The event svc derives when a session starts waiting on a human: a tool confirmation or a custom tool result. */
export const REQUIRES_ACTION = 'session.requires_action';

/** What `--events` can name: the spec's complete event types and the derived one (previews are never delivered). */
export const DELIVERABLE_TYPES: readonly string[] = [
  ...USER_EVENT_TYPES,
  ...AGENT_EVENT_TYPES.filter((t) => t !== 'agent.delta'),
  ...SESSION_EVENT_TYPES,
  REQUIRES_ACTION,
];

const FAMILIES = ['user', 'agent', 'session'];

/** Which event types are delivered: every type, or those `--events` names. */
export type EventFilter = (type: string) => boolean;

export const everyEvent: EventFilter = () => true;

/**
 * `--events TYPE,…`: exact types, or a family as `agent.*`. A name that matches no event svc can deliver is exit 2:
 * a typo would otherwise filter out everything, silently. Types are compared in the spec's spelling, so
 * `session.status` also takes a service's `session.status_idle`.
 */
export function parseEventFilter(text: string): EventFilter {
  const names = text.split(',').map((s) => s.trim());
  if (names.some((n) => n === ''))
    throw new UsageError(`--events takes event types separated by commas, such as session.requires_action,session.error (got "${text}")`);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const name of names) {
    if (name === 'agent.delta') throw new UsageError('--events: agent.delta is a live preview and is never delivered; agent.message carries the complete text');
    if (DELIVERABLE_TYPES.includes(name)) exact.add(name);
    else if (name.endsWith('.*') && FAMILIES.includes(name.slice(0, -2))) prefixes.push(name.slice(0, -1));
    else throw new UsageError(`--events: unknown event type "${name}"; known: ${DELIVERABLE_TYPES.join(', ')}, or a family such as agent.*`);
  }
  return (type) => exact.has(type) || prefixes.some((p) => type.startsWith(p));
}

/**
 * The awaited call an event answers, by its ID: a tool confirmation, a custom tool result, or a tool result (an
 * interrupt gives each awaited call an error result). `e` is in the spec's shape.
 */
export function answeredCall(e: SessionEvent): string | undefined {
  const id = (payloadOf(e, 'user.tool_confirmation') ?? payloadOf(e, 'user.custom_tool_result') ?? payloadOf(e, 'agent.tool_result'))?.event_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The derived `session.requires_action` of an event that makes a session wait on a human: an `agent.tool_use` that
 * asks for confirmation, or an `agent.custom_tool_use`. `e` is in the spec's shape (canonicalEvent). Its ID is the
 * awaited call's, suffixed, so it is as stable as the call's own.
 */
export function requiresActionOf(e: SessionEvent): SessionEvent | undefined {
  const asks = payloadOf(e, 'agent.tool_use');
  const custom = payloadOf(e, 'agent.custom_tool_use');
  let kind: string;
  if (asks?.permission === 'ask') kind = 'tool_confirmation';
  else if (custom) kind = 'custom_tool_result';
  else return undefined;
  const data = asks ?? custom ?? {};
  const action: Record<string, unknown> = { kind, event_id: e.id, name: data.name, input: data.input };
  if (data.mcp_server_name !== undefined) action.mcp_server_name = data.mcp_server_name;
  const derived: SessionEvent = { id: `${e.id}.requires_action`, type: REQUIRES_ACTION, processed_at: e.processed_at, data: action };
  if (e.session_thread_id !== undefined) derived.session_thread_id = e.session_thread_id;
  return derived;
}
