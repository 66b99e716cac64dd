/**
 * Two sessions' summaries compared part by part (pure): turns, each turn's stop reason, errors and tool calls (name,
 * input, outcome), durations (unless ignored; a duration differs when it changes by more than half of the longer
 * and by more than a second: runs are never timed alike), and the final agent message (unless `text` is ignored).
 * The agent and its version are shown, not compared: a rerun after `svc apply` is on another version by design.
 */
import { unifiedDiff } from './lines';
import type { SessionSummary } from './summary';

/** Parts a comparison may leave out (`--ignore`). */
export type Ignorable = 'durations' | 'text';

export interface Difference {
  /** Where: `turns`, `turn 2 stop_reason`, `turn 1 tool 3`, `final_message`, … */
  part: string;
  a: unknown;
  b: unknown;
}

export interface Comparison {
  same: boolean;
  a: SessionSummary;
  b: SessionSummary;
  differences: Difference[];
  /** The unified diff of the final agent messages ('' when the same or ignored). */
  message_diff: string;
}

/** Durations far enough apart to call different. */
export const durationsDiffer = (a: number, b: number) => Math.abs(a - b) > Math.max(1000, Math.max(a, b) / 2);

const tool = (t: { name: string; input: string; outcome: string }) => `${t.name}(${t.input}) ${t.outcome}`;

export function compareSummaries(a: SessionSummary, b: SessionSummary, ignore: ReadonlySet<Ignorable>): Comparison {
  const diffs: Difference[] = [];
  const add = (part: string, x: unknown, y: unknown) => diffs.push({ part, a: x, b: y });
  if (a.turns.length !== b.turns.length) add('turns', a.turns.length, b.turns.length);
  const n = Math.min(a.turns.length, b.turns.length);
  for (let i = 0; i < n; i++) {
    const [ta, tb] = [a.turns[i], b.turns[i]];
    const at = `turn ${i + 1}`;
    if (ta.stop_reason !== tb.stop_reason) add(`${at} stop_reason`, ta.stop_reason, tb.stop_reason);
    if (ta.errors.join(',') !== tb.errors.join(',')) add(`${at} errors`, ta.errors, tb.errors);
    if (!ignore.has('durations') && durationsDiffer(ta.duration_ms, tb.duration_ms)) add(`${at} duration_ms`, ta.duration_ms, tb.duration_ms);
    const m = Math.max(ta.tools.length, tb.tools.length);
    for (let k = 0; k < m; k++) {
      const [ca, cb] = [ta.tools[k], tb.tools[k]];
      if (!ca || !cb || tool(ca) !== tool(cb)) add(`${at} tool ${k + 1}`, ca ? tool(ca) : null, cb ? tool(cb) : null);
      else if (!ignore.has('durations') && durationsDiffer(ca.duration_ms, cb.duration_ms))
        add(`${at} tool ${k + 1} duration_ms`, ca.duration_ms, cb.duration_ms);
    }
  }
  let message_diff = '';
  if (!ignore.has('text') && a.final_message !== b.final_message) {
    add('final_message', a.final_message, b.final_message);
    message_diff = unifiedDiff(a.final_message, b.final_message, a.session_id, b.session_id);
  }
  return { same: diffs.length === 0, a, b, differences: diffs, message_diff };
}
