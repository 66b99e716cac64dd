/**
 * The searchable text of events (no commander, no I/O): messages and thinking, tool inputs and results, errors.
 * Each event becomes one record of its lines, small enough to keep in the cache for a settled session, so a second
 * search reads no history that has not changed.
 */
import { isObject } from '../wire/is-object';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';

/** One event's text: its ID, time, type, thread, and lines. */
export interface TextRecord {
  id: string;
  at: string;
  type: string;
  thread?: string;
  lines: string[];
}

/** The event types that carry text worth searching. */
export const SEARCHED_TYPES = [
  'user.message',
  'agent.message',
  'agent.thinking',
  'agent.tool_use',
  'agent.custom_tool_use',
  'agent.tool_result',
  'user.tool_result',
  'user.custom_tool_result',
  'user.tool_confirmation',
  'session.error',
] as const;
const SEARCHED = new Set<string>(SEARCHED_TYPES);

type Data = Record<string, unknown>;

/** The text of content blocks (`text` blocks; other blocks by their name or type). */
function blocksText(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const b of v) {
    if (typeof b === 'string') out.push(b);
    else if (isObject(b) && typeof b.text === 'string') out.push(b.text);
    else if (isObject(b) && typeof b.name === 'string') out.push(b.name);
  }
  return out;
}

/** An event's text record, or undefined when it carries none. */
export function textOf(raw: SessionEvent): TextRecord | undefined {
  if (!SEARCHED.has(raw.type) && !raw.type.startsWith('agent.mcp_tool')) return undefined;
  const e = canonicalEvent(raw);
  const d = (e.data ?? {}) as Data;
  let parts: string[];
  switch (e.type) {
    case 'agent.tool_use':
    case 'agent.custom_tool_use':
      parts = [`${typeof d.name === 'string' ? d.name : ''} ${d.input === undefined ? '' : JSON.stringify(d.input)}`.trim()];
      break;
    case 'agent.tool_result': {
      const r = (isObject(d.tool_result) ? d.tool_result : {}) as Data;
      parts = blocksText(r.content);
      break;
    }
    case 'user.tool_confirmation':
      parts = typeof d.deny_message === 'string' ? [d.deny_message] : [];
      break;
    case 'session.error':
      parts = [[d.error_type, d.message].filter((x) => typeof x === 'string').join(': ')];
      break;
    default:
      parts = blocksText(d.content);
  }
  const lines = parts.flatMap((p) => p.split(/\r?\n/)).filter((l) => l !== '');
  if (lines.length === 0) return undefined;
  const rec: TextRecord = { id: e.id, at: e.processed_at, type: e.type, lines };
  if (e.session_thread_id !== undefined) rec.thread = e.session_thread_id;
  return rec;
}
