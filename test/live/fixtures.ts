/** StreamItems as follow() yields them, for driving the live view without a server. */
import type { StreamItem } from '../../src/api/stream/types';
import type { DeltaEvent, SessionEvent } from '../../src/wire/events';
import { reduce, type Action, type ViewState } from '../../src/live/reducer';

let n = 0;
export function ev(type: string, data?: Record<string, unknown>, extra: Partial<SessionEvent> = {}): StreamItem {
  const event: SessionEvent = { id: extra.id ?? `sevt_${++n}`, type, processed_at: '2026-09-01T00:00:00Z', ...extra, ...(data === undefined ? {} : { data }) };
  return { kind: 'event', event, raw: JSON.stringify(event) };
}

export function delta(data: DeltaEvent['data'], thread?: string): StreamItem {
  const d: DeltaEvent = { type: 'agent.delta', ...(thread ? { session_thread_id: thread } : {}), data };
  return { kind: 'delta', delta: d, raw: JSON.stringify(d) };
}

export const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
export const live: StreamItem = { kind: 'connection', state: { kind: 'live' } };

/** Applies stream items (at time `at`, or the index) to a state. */
export function feed(s: ViewState, items: StreamItem[], at?: (i: number) => number): ViewState {
  return items.reduce((acc, item, i) => reduce(acc, { type: 'stream', item, at: at ? at(i) : i }), s);
}

export function apply(s: ViewState, ...actions: Action[]): ViewState {
  return actions.reduce(reduce, s);
}
