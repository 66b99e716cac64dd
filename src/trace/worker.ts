/**
 * `svc worker run --otlp-endpoint URL`: each tool call the worker runs becomes a span in the session's own trace
 * (trace ID from the session ID), a child of the hosted tool call's span (the same ID `svc sessions trace` gives
 * the span its `agent.tool_use` opens), so the service's turn and the work in the operator's sandbox land in one
 * trace. Posts go out as each call ends, in the background; a failure is logged, never fatal to the work.
 */
import type { ToolRun } from '../worker/session';
import { OtlpExporter, type OtlpTarget } from './export';
import { hostedSpanId, spanIdOf, type Span } from './spans';

export interface WorkerSpans {
  toolRun: (run: ToolRun) => void;
  /** Waits for the posts in flight (at the worker's end). */
  flush: () => Promise<void>;
}

export function workerSpans(
  target: OtlpTarget,
  o: { workerId: string; sleep: (ms: number) => Promise<void>; userAgent: string; warn: (line: string) => void },
): WorkerSpans {
  const inFlight = new Set<Promise<void>>();
  return {
    toolRun(run) {
      const span: Span = {
        id: spanIdOf(run.sessionId, `worker/${run.callId}`),
        parent: hostedSpanId(run.sessionId, run.callId),
        kind: 'tool',
        name: `execute_tool ${run.name}`,
        start: run.startMs,
        end: run.endMs,
        depth: 0,
        attrs: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': run.name,
          'gen_ai.tool.call.id': run.callId,
          'svc.tool.outcome': run.outcome,
          'svc.worker.id': o.workerId,
        },
        events: [],
        status: run.outcome === 'ok' ? 'ok' : 'error',
      };
      const exporter = new OtlpExporter(target, { session: run.sessionId, service: 'svc-worker' }, o.sleep, o.userAgent);
      const p = exporter
        .add([span])
        .then(() => exporter.flush())
        .catch((e: unknown) => o.warn(`the span of ${run.name} (${run.callId}) was not sent: ${(e as Error).message}`))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    flush: async () => {
      await Promise.all([...inFlight]);
    },
  };
}
