/**
 * `svc listen --otlp-endpoint URL`: a listen destination that folds each session's events as they are delivered
 * (one TraceFold per session; listen delivers a session's events in order, one at a time) and posts the spans of
 * each turn as it settles. A delivery that is attempted again is folded once (its ID is remembered); a post that
 * fails is retried with the delivery, as a webhook would be. A listener started mid-turn folds from what it sees.
 */
import type { Delivery, Destination, Outcome } from '../listen/destination';
import type { OtlpTarget } from './export';
import { OtlpExporter } from './export';
import { TraceFold, type Span } from './spans';

interface SessionTrace {
  fold: TraceFold;
  lastDelivery?: string;
  /** Spans of settled turns not yet accepted by the collector. */
  unsent: Span[];
}

/** Sessions whose folds are kept; beyond it the oldest is let go (its open turn is then never posted). */
const MAX_SESSIONS = 10_000;

export function otlpDestination(target: OtlpTarget, sleep: (ms: number) => Promise<void>, userAgent: string, concurrency: number): Destination {
  const traces = new Map<string, SessionTrace>();
  return {
    name: target.url,
    concurrency,
    async attempt(d: Delivery): Promise<Outcome> {
      let t = traces.get(d.sessionId);
      if (!t) {
        if (traces.size >= MAX_SESSIONS) traces.delete(traces.keys().next().value!);
        t = { fold: new TraceFold({ session: d.sessionId }), unsent: [] };
        traces.set(d.sessionId, t);
      }
      if (t.lastDelivery !== d.id) {
        t.lastDelivery = d.id;
        const { event } = JSON.parse(d.body) as { event: Parameters<TraceFold['add']>[0] };
        t.fold.add(event);
        t.unsent.push(...t.fold.take());
      }
      if (t.unsent.length === 0) return { kind: 'accepted' };
      try {
        // One attempt per delivery: listen's own back-off paces the retries.
        const exporter = new OtlpExporter(target, { session: d.sessionId }, sleep, userAgent, 1);
        await exporter.add(t.unsent);
        await exporter.flush();
        t.unsent = [];
        return { kind: 'accepted' };
      } catch (e) {
        return { kind: 'retry', reason: (e as Error).message };
      }
    },
  };
}
