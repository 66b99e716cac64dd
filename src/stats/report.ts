/** The figures as svc prints them (`-o json|yaml` and the table): percentiles instead of samples. */
import { percentiles, Sample } from './sample';
import type { Tally } from './tally';

export interface ToolFigures {
  calls: number;
  errors: number;
  duration_ms: { p50: number; p95: number } | null;
}

export interface Figures {
  turns: number;
  model_requests: number;
  tool_calls: number;
  tool_errors: number;
  tools: Record<string, ToolFigures>;
  errors: Record<string, number>;
  interrupts: number;
  human_waits: { count: number; seconds: number };
  running_seconds: number;
  turn_seconds: { p50: number; p95: number } | null;
  ttft_ms: { p50: number; p95: number } | null;
  first_event_at: string | null;
  last_event_at: string | null;
}

/** One group of `svc stats`: its key, how many sessions and how many failed, then the figures. */
export interface GroupFigures extends Figures {
  group: string;
  sessions: number;
  failed: number;
  /** Turns per UTC day, oldest first (the sparkline's data). */
  turns_per_day: Record<string, number>;
}

const ms = (d: Tally['ttft_ms']) => percentiles(Sample.from(d));

export function figures(t: Tally): Figures {
  const turn = ms(t.turn_ms);
  return {
    turns: t.turns,
    model_requests: t.model_requests,
    tool_calls: t.tool_calls,
    tool_errors: t.tool_errors,
    tools: Object.fromEntries(
      Object.entries(t.tools)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, v]) => [name, { calls: v.calls, errors: v.errors, duration_ms: ms(v.durations) }]),
    ),
    errors: Object.fromEntries(Object.entries(t.errors).sort(([a], [b]) => a.localeCompare(b))),
    interrupts: t.interrupts,
    human_waits: t.human_waits,
    running_seconds: t.running_seconds,
    turn_seconds: turn && { p50: turn.p50 / 1000, p95: turn.p95 / 1000 },
    ttft_ms: ms(t.ttft_ms),
    first_event_at: t.first_event_at,
    last_event_at: t.last_event_at,
  };
}

export function groupFigures(group: string, sessions: number, failed: number, t: Tally): GroupFigures {
  const days = Object.fromEntries(Object.entries(t.days).sort(([a], [b]) => a.localeCompare(b)));
  return { group, sessions, failed, ...figures(t), turns_per_day: days };
}
