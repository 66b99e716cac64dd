/** How one complete event reads in the transcript: the live view colours it, `svc demo` prints it as one line. */
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import { escapeControls, escapeLineControls } from '../output/controls';

export type ItemKind =
  | 'user'
  | 'message'
  | 'thinking'
  | 'tool_use'
  | 'custom_tool_use'
  | 'tool_result'
  | 'reply'
  | 'interrupt'
  /** A Continue, which has no event of its own: marked from the epoch change and the status after an interrupt. */
  | 'continue'
  | 'status'
  | 'error'
  | 'thread'
  | 'updated'
  | 'progress'
  /** The outcome of the view's own interrupt or continue. */
  | 'control'
  /** Items the view dropped because it fell behind; `text` holds how many. */
  | 'gap'
  /** The thread filter changed: lines from here on are of `text` (a filter of the reducer) only. */
  | 'filter';

export interface Item {
  /** Position in the transcript; the live view acknowledges flushed items by it. */
  seq: number;
  kind: ItemKind;
  /** The child thread that produced the event; undefined for the coordinator. */
  threadId?: string;
  /** The thread's name as shown in the tag (its agent name once known). */
  thread?: string;
  head: string;
  text?: string;
  error?: boolean;
  /** Progress markers (`*_started`, `running`): printed by the demo, left out of the live transcript. */
  quiet?: boolean;
  /** A `session.status` item: the session's derived state after it (src/live/status.ts). */
  state?: string;
}

type Data = Record<string, any>;
const SUMMARY_CHARS = 200;
/** Stop reasons shown as failures (red): the turn could not finish its work. */
const FAILED_STOPS = new Set<unknown>(['error', 'retries_exhausted']);

/** The text blocks of a content array joined; other blocks shown by type. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((b: Data) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : `[${String(b?.type ?? 'block')}${b?.file_id ? ` ${b.file_id}` : ''}]`))
    .join(' ');
}

function truncate(s: string, max = SUMMARY_CHARS): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A result is summarised: its first text, truncated, and how many more items it holds. */
function resultSummary(content: unknown): string {
  const items = Array.isArray(content) ? content : [];
  const more = items.length > 1 ? ` (+${items.length - 1} more)` : '';
  return truncate(contentText(items.slice(0, 1))) + more;
}

const json = (v: unknown): string => truncate(JSON.stringify(v ?? {}) ?? '');

/**
 * The transcript item of an event (in any shape canonicalEvent reads); undefined for event types the view does not
 * know. The service's text is escaped (control characters never reach the terminal raw).
 */
export function describeEvent(event: SessionEvent, seq: number, thread?: string): Item | undefined {
  const item = describe(canonicalEvent(event), seq, thread);
  if (!item) return undefined;
  return {
    ...item,
    head: escapeLineControls(item.head),
    ...(item.text === undefined ? {} : { text: escapeControls(item.text) }),
    ...(item.thread === undefined ? {} : { thread: escapeLineControls(item.thread) }),
  };
}

function describe(e: SessionEvent, seq: number, thread?: string): Item | undefined {
  const d: Data = e.data ?? {};
  const base = { seq, threadId: e.session_thread_id, thread: e.session_thread_id === undefined ? undefined : (thread ?? e.session_thread_id) };
  switch (e.type) {
    case 'user.message':
      return { ...base, kind: 'user', head: 'you', text: contentText(d.content) };
    case 'user.interrupt':
      return { ...base, kind: 'interrupt', head: 'interrupt', text: e.epoch === undefined ? undefined : `epoch ${e.epoch}` };
    case 'user.tool_confirmation':
      return { ...base, kind: 'reply', head: d.result === 'allow' ? 'allowed' : 'denied', text: [d.event_id, d.deny_message].filter(Boolean).join(': ') };
    case 'user.tool_result':
    case 'user.custom_tool_result':
      return {
        ...base,
        kind: 'reply',
        // Red in the live view, and said in words too: colour is never the only sign of an error.
        head: `${e.type === 'user.tool_result' ? 'tool result' : 'custom result'} sent${d.is_error ? ' as an error' : ''}`,
        text: resultSummary(d.content),
        error: Boolean(d.is_error),
      };
    case 'agent.message':
      return { ...base, kind: 'message', head: 'agent', text: contentText(d.content) };
    case 'agent.thinking':
      return { ...base, kind: 'thinking', head: 'thinking', text: contentText(d.content) };
    case 'agent.tool_use': {
      const from = d.mcp_server_name ? ` (${d.mcp_server_name})` : '';
      return { ...base, kind: 'tool_use', head: `tool ${d.name}${from}`, text: json(d.input) + (d.permission === 'ask' ? '  awaiting confirmation' : '') };
    }
    case 'agent.custom_tool_use':
      return { ...base, kind: 'custom_tool_use', head: `custom tool ${d.name}`, text: `${json(d.input)}  awaiting result` };
    case 'agent.tool_result':
      return {
        ...base,
        kind: 'tool_result',
        head: d.is_error ? 'tool failed' : 'tool result',
        text: resultSummary(d.tool_result?.structured_content ?? d.tool_result?.content),
        error: Boolean(d.is_error),
      };
    case 'agent.model_started':
      return { ...base, kind: 'progress', head: 'model started', text: d.model, quiet: true };
    case 'agent.tool_started':
      return { ...base, kind: 'progress', head: 'tool started', text: d.event_id, quiet: true };
    case 'agent.thinking_started':
    case 'agent.message_started':
      return { ...base, kind: 'progress', head: e.type === 'agent.thinking_started' ? 'thinking started' : 'message started', quiet: true };
    case 'session.status': {
      const reason = d.stop_reason?.type;
      return { ...base, kind: 'status', head: String(d.status), text: reason, quiet: d.status === 'running', error: FAILED_STOPS.has(reason) };
    }
    case 'session.error':
      return {
        ...base,
        kind: 'error',
        head: `error ${d.error_type}`,
        text: [d.message, d.mcp_server_name && `(mcp server ${d.mcp_server_name})`].filter(Boolean).join(' '),
        error: true,
      };
    case 'session.thread_created':
      return { ...base, kind: 'thread', head: 'thread started', text: `${d.agent_name ?? ''} ${d.thread_id ?? ''}`.trim() };
    case 'session.thread_status':
      return { ...base, kind: 'thread', head: `thread ${d.status}`, quiet: d.status === 'running' };
    case 'session.updated':
      return {
        ...base,
        kind: 'updated',
        head: 'session updated',
        text: Object.keys(d)
          .map((k) => (k === 'title' ? `title "${d.title}"` : k))
          .join(', '),
      };
    default:
      return undefined;
  }
}

/** One plain line per item (the demo's transcript): line breaks inside messages become spaces. */
export function formatItem(item: Item): string {
  const tag = item.thread ? `[${item.thread}] ` : '';
  return `${tag}${item.head}${item.text ? `: ${item.text.replace(/\s*\n\s*/g, ' ')}` : ''}`;
}

/** Thread IDs to agent names, learnt from `session.thread_created`, for tagging child-thread lines. */
export function threadNames() {
  const names = new Map<string, string>();
  return {
    see(e: SessionEvent): void {
      const d = (e.data ?? {}) as { thread_id?: unknown; agent_name?: unknown };
      if (e.type === 'session.thread_created' && typeof d.thread_id === 'string' && typeof d.agent_name === 'string') names.set(d.thread_id, d.agent_name);
    },
    of: (id: string | undefined): string | undefined => (id === undefined ? undefined : (names.get(id) ?? id)),
  };
}
