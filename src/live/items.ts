/** How one complete event reads in the transcript: the live view colours it, `svc demo` prints it as one line. */
import { payloadOf, type ContentBlock, type EventPayloads, type SessionEvent } from '../wire/events';
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

const SUMMARY_CHARS = 200;
/** Stop reasons shown as failures (red): the turn could not finish its work. */
const FAILED_STOPS = new Set<unknown>(['error', 'retries_exhausted']);

/** The text blocks of a content array joined; other blocks shown by type. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((b: ContentBlock | undefined) =>
      b?.type === 'text' && typeof b.text === 'string' ? b.text : `[${String(b?.type ?? 'block')}${b?.file_id ? ` ${b.file_id}` : ''}]`,
    )
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

/** What an event's item says besides its place (sequence and thread). */
type Said = Omit<Item, 'seq' | 'threadId' | 'thread'>;
type Describer<K extends keyof EventPayloads> = (d: EventPayloads[K] & Record<string, unknown>, e: SessionEvent) => Said;

const progress = (head: string, text?: string): Said => ({ kind: 'progress', head, text, quiet: true });
const reply =
  (what: string) =>
  (d: EventPayloads['user.tool_result']): Said => ({
    kind: 'reply',
    // Red in the live view, and said in words too: colour is never the only sign of an error.
    head: `${what} sent${d.is_error ? ' as an error' : ''}`,
    text: resultSummary(d.content),
    error: Boolean(d.is_error),
  });

/** How each event type the view knows reads, from its typed payload. */
const DESCRIBE: { [K in keyof EventPayloads]: Describer<K> } = {
  'user.message': (d) => ({ kind: 'user', head: 'you', text: contentText(d.content) }),
  'user.interrupt': (_d, e) => ({ kind: 'interrupt', head: 'interrupt', text: e.epoch === undefined ? undefined : `epoch ${e.epoch}` }),
  'user.tool_confirmation': (d) => ({
    kind: 'reply',
    head: d.result === 'allow' ? 'allowed' : 'denied',
    text: [d.event_id, d.deny_message].filter(Boolean).join(': '),
  }),
  'user.tool_result': reply('tool result'),
  'user.custom_tool_result': reply('custom result'),
  'agent.message': (d) => ({ kind: 'message', head: 'agent', text: contentText(d.content) }),
  'agent.thinking': (d) => ({ kind: 'thinking', head: 'thinking', text: contentText(d.content) }),
  'agent.tool_use': (d) => ({
    kind: 'tool_use',
    head: `tool ${d.name}${d.mcp_server_name ? ` (${d.mcp_server_name})` : ''}`,
    text: json(d.input) + (d.permission === 'ask' ? '  awaiting confirmation' : ''),
  }),
  'agent.custom_tool_use': (d) => ({ kind: 'custom_tool_use', head: `custom tool ${d.name}`, text: `${json(d.input)}  awaiting result` }),
  'agent.tool_result': (d) => ({
    kind: 'tool_result',
    head: d.is_error ? 'tool failed' : 'tool result',
    text: resultSummary(d.tool_result?.structured_content ?? d.tool_result?.content),
    error: Boolean(d.is_error),
  }),
  'agent.model_started': (d) => progress('model started', d.model),
  'agent.tool_started': (d) => progress('tool started', d.event_id),
  'agent.thinking_started': () => progress('thinking started'),
  'agent.message_started': () => progress('message started'),
  'session.status': (d) => {
    const reason = d.stop_reason?.type;
    return { kind: 'status', head: String(d.status), text: reason, quiet: d.status === 'running', error: FAILED_STOPS.has(reason) };
  },
  'session.error': (d) => ({
    kind: 'error',
    head: `error ${d.error_type}`,
    text: [d.message, d.mcp_server_name && `(mcp server ${d.mcp_server_name})`].filter(Boolean).join(' '),
    error: true,
  }),
  'session.thread_created': (d) => ({ kind: 'thread', head: 'thread started', text: `${d.agent_name ?? ''} ${d.thread_id ?? ''}`.trim() }),
  'session.thread_status': (d) => ({ kind: 'thread', head: `thread ${d.status}`, quiet: d.status === 'running' }),
  'session.updated': (d) => ({
    kind: 'updated',
    head: 'session updated',
    text: Object.keys(d)
      .map((k) => (k === 'title' ? `title "${d.title}"` : k))
      .join(', '),
  }),
};

const known = (type: string): type is keyof EventPayloads => Object.hasOwn(DESCRIBE, type);

function describe(e: SessionEvent, seq: number, thread?: string): Item | undefined {
  if (!known(e.type)) return undefined;
  const said = (DESCRIBE[e.type] as Describer<typeof e.type>)(e.data ?? {}, e);
  return { seq, threadId: e.session_thread_id, thread: e.session_thread_id === undefined ? undefined : (thread ?? e.session_thread_id), ...said };
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
      const d = payloadOf(e, 'session.thread_created');
      if (typeof d?.thread_id === 'string' && typeof d.agent_name === 'string') names.set(d.thread_id, d.agent_name);
    },
    of: (id: string | undefined): string | undefined => (id === undefined ? undefined : (names.get(id) ?? id)),
  };
}
