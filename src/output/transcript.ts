/**
 * A session's history as a readable transcript: one entry per meaningful event, child threads nested
 * under the delegation that created them. Pure functions; the md and html renderers format the result.
 */
import type { SessionEvent } from '../wire/events';

export type Tone = 'user' | 'agent' | 'thinking' | 'tool' | 'result' | 'error' | 'status' | 'other';

/** What a reader sees of one event. */
export interface Entry {
  label: string;
  tone: Tone;
  text?: string;
  /** Structured detail shown as a code block (tool input, unknown payloads). */
  code?: string;
  time?: string;
  id?: string;
}

export interface ThreadNode {
  /** Undefined for the coordinator. */
  id?: string;
  agentName?: string;
  items: TranscriptItem[];
}

export type TranscriptItem = { kind: 'entry'; entry: Entry } | { kind: 'thread'; thread: ThreadNode };

/** Markers of a start that the complete event that follows already tells. */
const SILENT = new Set(['agent.model_started', 'agent.message_started', 'agent.thinking_started', 'agent.tool_started', 'agent.delta']);

/**
 * Builds the thread tree in history order. A `session.thread_created` places its thread where it happened in
 * the parent's timeline; events of a thread never announced (a history cut short) get a thread at the end of the root.
 */
export function buildTranscript(events: Iterable<SessionEvent>): ThreadNode {
  const root: ThreadNode = { items: [] };
  const known = new Map<string, ThreadNode>();
  const threadFor = (id: string): ThreadNode => {
    let t = known.get(id);
    if (!t) {
      t = { id, items: [] };
      known.set(id, t);
      root.items.push({ kind: 'thread', thread: t });
    }
    return t;
  };
  for (const e of events) {
    if (e.type === 'session.thread_created' && typeof e.data?.thread_id === 'string' && !known.has(e.data.thread_id)) {
      const parentId = e.data.parent_thread_id;
      const parent = typeof parentId === 'string' ? known.get(parentId) ?? root : root;
      const t: ThreadNode = { id: e.data.thread_id, agentName: typeof e.data.agent_name === 'string' ? e.data.agent_name : undefined, items: [] };
      known.set(t.id!, t);
      parent.items.push({ kind: 'thread', thread: t });
      continue;
    }
    const entry = describeEvent(e);
    if (!entry) continue;
    (e.session_thread_id ? threadFor(e.session_thread_id) : root).items.push({ kind: 'entry', entry });
  }
  return root;
}

/** The readable form of one event; undefined for start markers. Unknown types keep their payload (tolerant). */
export function describeEvent(e: SessionEvent): Entry | undefined {
  if (SILENT.has(e.type)) return undefined;
  const d = (e.data ?? {}) as Record<string, any>;
  const base = { time: e.processed_at, id: e.id };
  switch (e.type) {
    case 'user.message':
      return { ...base, label: 'User', tone: 'user', text: blocksText(d.content) };
    case 'user.interrupt':
      return { ...base, label: 'Interrupt', tone: 'status', text: e.epoch === undefined ? 'interrupt requested' : `interrupt acknowledged (control epoch ${e.epoch})` };
    case 'user.tool_confirmation':
      return { ...base, label: 'Confirmation', tone: d.result === 'deny' ? 'error' : 'tool', text: `${d.result} ${d.event_id ?? ''}`.trim() + (d.deny_message ? `: ${d.deny_message}` : '') };
    case 'user.custom_tool_result':
    case 'user.tool_result':
      return { ...base, label: e.type === 'user.tool_result' ? 'Tool result (worker)' : 'Custom tool result', tone: d.is_error ? 'error' : 'result', text: blocksText(d.content) };
    case 'agent.message':
      return { ...base, label: 'Agent', tone: 'agent', text: blocksText(d.content) };
    case 'agent.thinking':
      return { ...base, label: 'Thinking', tone: 'thinking', text: blocksText(d.content) };
    case 'agent.tool_use':
    case 'agent.custom_tool_use': {
      const ask = d.permission === 'ask' ? ' (awaits confirmation)' : '';
      const mcp = d.mcp_server_name ? ` via ${d.mcp_server_name}` : '';
      const label = e.type === 'agent.tool_use' ? 'Tool call' : 'Custom tool call';
      return { ...base, label, tone: 'tool', text: `${d.name ?? '?'}${mcp}${ask}`, code: json(d.input) };
    }
    case 'agent.tool_result':
      return { ...base, label: 'Tool result', tone: d.is_error ? 'error' : 'result', text: blocksText(d.tool_result?.content) };
    case 'session.status': {
      const reason = d.stop_reason?.type ? ` (${d.stop_reason.type})` : '';
      return { ...base, label: 'Status', tone: 'status', text: `${d.status ?? '?'}${reason}` };
    }
    case 'session.error':
      return { ...base, label: 'Error', tone: 'error', text: `${d.error_type ?? 'error'}: ${d.message ?? ''}`.trim() + (d.mcp_server_name ? ` (MCP server ${d.mcp_server_name})` : '') };
    case 'session.thread_status':
      return { ...base, label: 'Thread status', tone: 'status', text: String(d.status ?? '?') };
    case 'session.thread_created':
      return { ...base, label: 'Thread created', tone: 'status', text: `${d.agent_name ?? ''} ${d.thread_id ?? ''}`.trim() };
    case 'session.updated':
      return { ...base, label: 'Session updated', tone: 'status', code: json(e.data) };
    default:
      return { ...base, label: e.type, tone: 'other', code: e.data === undefined ? undefined : json(e.data) };
  }
}

/** One line for tables: the entry's text, else its code, else nothing. */
export function eventSummary(e: SessionEvent): string {
  const entry = describeEvent(e);
  if (!entry) return '';
  return [entry.text, entry.code].filter(Boolean).join(' ');
}

/** Text blocks as text; file and image blocks as `[file ID]`; other blocks by their type. */
export function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: any) => {
      if (b?.type === 'text') return String(b.text ?? '');
      if (b?.file_id) return `[${b.type} ${b.file_id}]`;
      return `[${b?.type ?? 'block'}]`;
    })
    .join('\n');
}

function json(v: unknown): string {
  return JSON.stringify(v ?? null, null, 2);
}
