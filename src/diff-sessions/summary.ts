/**
 * What `svc sessions diff` compares of a session, read from its history in one pass (no commander, no I/O): the
 * turns as the trace folds them (spans.ts: a turn runs to a stop that is not `requires_action`), each with its stop
 * reason, duration, errors and the sequence of its tool calls (name, a short summary of the input, outcome), and
 * the last agent message.
 */
import { isObject } from '../wire/is-object';
import { TraceFold, type Span } from '../trace/spans';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';

export interface ToolCallSummary {
  name: string;
  input: string;
  outcome: string;
  duration_ms: number;
}

export interface TurnSummary {
  stop_reason: string;
  duration_ms: number;
  errors: string[];
  tools: ToolCallSummary[];
}

export interface SessionSummary {
  session_id: string;
  agent_id: string | null;
  agent_version: number | null;
  turns: TurnSummary[];
  final_message: string;
}

/** At most this many characters of a tool's input. */
const INPUT_CHARS = 60;

/** A tool input in one short line: its JSON, cut. */
export function inputSummary(input: unknown): string {
  if (input === undefined) return '';
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return text.length > INPUT_CHARS ? text.slice(0, INPUT_CHARS - 1) + '…' : text;
}

const textOf = (content: unknown) =>
  Array.isArray(content)
    ? content
        .filter((b) => isObject(b) && typeof b.text === 'string')
        .map((b) => (b as { text: string }).text)
        .join('\n')
    : '';

export class SummaryFold {
  private readonly fold: TraceFold;
  private readonly inputs = new Map<string, string>();
  private readonly turns: TurnSummary[] = [];
  private final = '';

  constructor(private readonly session: { id: string; agent_id?: unknown; agent_version?: unknown }) {
    this.fold = new TraceFold({ session: session.id });
  }

  add(raw: SessionEvent): void {
    const e = canonicalEvent(raw);
    const d = (e.data ?? {}) as Record<string, unknown>;
    if (e.type === 'agent.tool_use' || e.type === 'agent.custom_tool_use') this.inputs.set(e.id, inputSummary(d.input));
    // The coordinator's last message: what the session answered.
    if (e.type === 'agent.message' && e.session_thread_id === undefined) this.final = textOf(d.content);
    this.fold.add(e);
    this.turnsOf(this.fold.take());
  }

  result(): SessionSummary {
    this.turnsOf(this.fold.finish());
    const s = this.session;
    return {
      session_id: s.id,
      agent_id: typeof s.agent_id === 'string' ? s.agent_id : null,
      agent_version: typeof s.agent_version === 'number' ? s.agent_version : null,
      turns: this.turns,
      final_message: this.final,
    };
  }

  private turnsOf(spans: Span[]): void {
    let turn: TurnSummary | undefined;
    for (const s of spans) {
      if (s.kind === 'turn') {
        turn = {
          stop_reason: String(s.attrs['svc.stop_reason'] ?? (s.attrs['svc.open'] ? 'running' : 'unknown')),
          duration_ms: s.end - s.start,
          errors: [],
          tools: [],
        };
        this.turns.push(turn);
      }
      if (!turn) continue;
      for (const e of s.events) if (e.name === 'session.error') turn.errors.push(String(e.attrs['error.type']));
      if (s.kind === 'tool') {
        const id = String(s.attrs['gen_ai.tool.call.id']);
        turn.tools.push({
          name: String(s.attrs['gen_ai.tool.name']),
          input: this.inputs.get(id) ?? '',
          outcome: String(s.attrs['svc.tool.outcome'] ?? 'unknown'),
          duration_ms: s.end - s.start,
        });
        this.inputs.delete(id);
      }
    }
  }
}
