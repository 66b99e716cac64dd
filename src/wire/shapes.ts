/**
 * Event shapes the public API this spec resembles uses where the spec shows none, read as
 * the spec's own: `session.status_idle` is a `session.status` with `status: idle`, `session.thread_status_*` a
 * `session.thread_status`, `agent.mcp_tool_use` / `agent.mcp_tool_result` the tool events of an MCP server, members
 * at the event's top level as well as under `data`, and `canceled` as the spec's `cancelled`. Events already in the
 * spec's shape come back unchanged (the same object), so the stream's hot path copies nothing.
 */
import type { SessionEvent } from './events';

const STATUS_PREFIX = 'session.status_';
const THREAD_STATUS_PREFIX = 'session.thread_status_';
/** Members of the event itself, never payload. */
const ENVELOPE = new Set(['id', 'type', 'processed_at', 'session_thread_id', 'epoch', 'data']);

type Data = Record<string, unknown>;

/** The spec's shape of an event (see the module comment); undefined members are left out. */
export function canonicalEvent(e: SessionEvent): SessionEvent {
  const top = e as unknown as Data;
  let loose = false;
  // A scan without allocating: this runs for every event of the stream.
  for (const k in top) if (!ENVELOPE.has(k)) loose = true;
  const renamed =
    e.type.startsWith(STATUS_PREFIX) || e.type.startsWith(THREAD_STATUS_PREFIX) || e.type === 'agent.mcp_tool_use' || e.type === 'agent.mcp_tool_result';
  const canceled = (e.data as Data | undefined)?.status === 'canceled';
  if (!loose && !renamed && !canceled) return e;

  // Assumption: a member under `data` wins over the same member at the top level.
  const data: Data = {};
  for (const [k, v] of Object.entries(top)) if (!ENVELOPE.has(k)) data[k] = v;
  Object.assign(data, e.data ?? {});
  let type = e.type;
  if (type.startsWith(STATUS_PREFIX)) {
    data.status ??= type.slice(STATUS_PREFIX.length);
    type = 'session.status';
  } else if (type.startsWith(THREAD_STATUS_PREFIX)) {
    data.status ??= type.slice(THREAD_STATUS_PREFIX.length);
    data.thread_id ??= e.session_thread_id;
    type = 'session.thread_status';
  } else if (type === 'agent.mcp_tool_use') {
    data.permission ??= data.evaluated_permission;
    type = 'agent.tool_use';
  } else if (type === 'agent.mcp_tool_result') {
    data.event_id ??= data.mcp_tool_use_id ?? data.tool_use_id;
    data.tool_result ??= { content: data.content };
    type = 'agent.tool_result';
  }
  if (data.status === 'canceled') data.status = 'cancelled';
  const out: SessionEvent = { id: e.id, type, processed_at: e.processed_at, data };
  if (e.session_thread_id !== undefined) out.session_thread_id = e.session_thread_id;
  if (e.epoch !== undefined) out.epoch = e.epoch;
  return out;
}
