/**
 * A session's history as a readable transcript: one entry per meaningful event, child threads nested
 * under the delegation that created them. Pure functions; the md and html renderers format the result.
 */
import { isObject } from '../wire/is-object';
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
    const d = payload(e);
    // Assumption (docs/service.md "tolerate"): a real service may name the new thread by `session_thread_id` beside `agent_name`.
    const created = e.type === 'session.thread_created' ? (str(d.thread_id) ?? str(d.session_thread_id) ?? e.session_thread_id) : undefined;
    if (created && !known.has(created)) {
      const parentId = str(d.parent_thread_id);
      const parent = parentId ? (known.get(parentId) ?? root) : root;
      const t: ThreadNode = { id: created, agentName: str(d.agent_name), items: [] };
      known.set(created, t);
      parent.items.push({ kind: 'thread', thread: t });
      continue;
    }
    const entry = describeEvent(e);
    if (!entry) continue;
    const thread = e.session_thread_id ? threadFor(e.session_thread_id) : root;
    thread.agentName ??= str(d.agent_name) ?? str((e as { agent_name?: unknown }).agent_name);
    thread.items.push({ kind: 'entry', entry });
  }
  return root;
}

/**
 * An event's payload: its `data`, or, for a service that puts the fields beside `type` (docs/service.md "tolerate"),
 * the event itself.
 */
function payload(e: SessionEvent): Record<string, any> {
  return isObject(e.data) ? e.data : (e as unknown as Record<string, any>);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The type this module describes: `session.status_idle` and `session.thread_status_idle` (a status named in the
 * type, docs/service.md "tolerate") are `session.status` / `session.thread_status` with that status.
 */
function kindOf(type: string): { type: string; status?: string } {
  const m = /^(session\.(?:thread_)?status)_(.+)$/.exec(type);
  return m ? { type: m[1], status: m[2] } : { type };
}

/** The readable form of one event; undefined for start markers. Unknown types keep their payload (tolerant). */
export function describeEvent(e: SessionEvent): Entry | undefined {
  if (SILENT.has(e.type)) return undefined;
  const d = payload(e);
  const base = { time: e.processed_at, id: e.id };
  const kind = kindOf(e.type);
  switch (kind.type) {
    case 'user.message':
      return { ...base, label: 'User', tone: 'user', text: blocksText(d.content) };
    case 'user.interrupt':
      return {
        ...base,
        label: 'Interrupt',
        tone: 'status',
        text: e.epoch === undefined ? 'interrupt requested' : `interrupt acknowledged (control epoch ${e.epoch})`,
      };
    case 'user.tool_confirmation':
      return {
        ...base,
        label: 'Confirmation',
        tone: d.result === 'deny' ? 'error' : 'tool',
        text: `${d.result} ${d.event_id ?? ''}`.trim() + (d.deny_message ? `: ${d.deny_message}` : ''),
      };
    case 'user.custom_tool_result':
    case 'user.tool_result':
      return {
        ...base,
        label: e.type === 'user.tool_result' ? 'Tool result (worker)' : 'Custom tool result',
        tone: d.is_error ? 'error' : 'result',
        text: blocksText(d.content),
      };
    case 'agent.message':
      return { ...base, label: 'Agent', tone: 'agent', text: blocksText(d.content) };
    case 'agent.thinking':
      return { ...base, label: 'Thinking', tone: 'thinking', text: blocksText(d.content) };
    case 'agent.tool_use':
    case 'agent.mcp_tool_use':
    case 'agent.custom_tool_use': {
      const ask = d.permission === 'ask' ? ' (awaits confirmation)' : '';
      const server = d.mcp_server_name ?? d.server_name;
      const mcp = server ? ` via ${server}` : '';
      const label = e.type === 'agent.custom_tool_use' ? 'Custom tool call' : e.type === 'agent.mcp_tool_use' ? 'MCP tool call' : 'Tool call';
      return { ...base, label, tone: 'tool', text: `${d.name ?? '?'}${mcp}${ask}`, code: json(d.input) };
    }
    case 'agent.tool_result':
    case 'agent.mcp_tool_result':
      return {
        ...base,
        label: e.type === 'agent.mcp_tool_result' ? 'MCP tool result' : 'Tool result',
        tone: d.is_error ? 'error' : 'result',
        text: blocksText(d.tool_result?.content ?? d.content),
      };
    case 'session.status': {
      const reason = d.stop_reason?.type ? ` (${d.stop_reason.type})` : '';
      return { ...base, label: 'Status', tone: 'status', text: `${d.status ?? kind.status ?? '?'}${reason}` };
    }
    case 'session.error':
      return {
        ...base,
        label: 'Error',
        tone: 'error',
        text: `${d.error_type ?? 'error'}: ${d.message ?? ''}`.trim() + (d.mcp_server_name ? ` (MCP server ${d.mcp_server_name})` : ''),
      };
    case 'session.thread_status': {
      const who = str(d.agent_name) ? ` (${d.agent_name})` : '';
      return { ...base, label: 'Thread status', tone: 'status', text: `${d.status ?? kind.status ?? '?'}${who}` };
    }
    case 'session.thread_created':
      return {
        ...base,
        label: 'Thread created',
        tone: 'status',
        text: `${d.agent_name ?? ''} ${d.thread_id ?? d.session_thread_id ?? e.session_thread_id ?? ''}`.trim(),
      };
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
