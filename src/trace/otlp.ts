/**
 * Spans as OTLP/JSON (`ExportTraceServiceRequest`, the protobuf JSON mapping OTLP/HTTP reads: IDs in hex, times as
 * decimal strings of nanoseconds, enums as numbers), with the OpenTelemetry GenAI semantic conventions the spans
 * already carry (`gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.request.model`, `gen_ai.agent.*`). One trace per
 * session: the trace ID is derived from the session ID (spans.ts traceIdOf).
 */
import { SVC_VERSION } from '../version';
import { traceIdOf, type Attr, type Span } from './spans';

/** SPAN_KIND_INTERNAL: everything here happened inside the service. */
const KIND_INTERNAL = 1;
const STATUS = { unset: 0, ok: 1, error: 2 } as const;

export interface OtlpResource {
  session: string;
  /** `service.name` of the resource (default `hosted-agent-service`). */
  service?: string;
  /** More resource attributes (the agent). */
  attrs?: Record<string, Attr>;
}

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };

const anyValue = (v: Attr): AnyValue =>
  typeof v === 'boolean' ? { boolValue: v } : typeof v === 'number' ? (Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v }) : { stringValue: v };

const attributes = (a: Record<string, Attr>) => Object.entries(a).map(([key, v]) => ({ key, value: anyValue(v) }));

const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;

/** One span in OTLP/JSON. */
export function otlpSpan(traceId: string, s: Span): Record<string, unknown> {
  const out: Record<string, unknown> = {
    traceId,
    spanId: s.id,
    name: s.name,
    kind: KIND_INTERNAL,
    startTimeUnixNano: nanos(s.start),
    endTimeUnixNano: nanos(s.end),
    attributes: attributes({ 'svc.span.kind': s.kind, ...(s.thread !== undefined ? { 'svc.thread_id': s.thread } : {}), ...s.attrs }),
    events: s.events.map((e) => ({ timeUnixNano: nanos(e.at), name: e.name, attributes: attributes(e.attrs) })),
    status: s.status === 'error' ? { code: STATUS.error, message: errorMessage(s) } : { code: STATUS[s.status] },
  };
  if (s.parent) out.parentSpanId = s.parent;
  return out;
}

const errorMessage = (s: Span) => {
  const e = s.events.find((x) => x.name === 'session.error');
  return e ? String(e.attrs['error.type']) : String(s.attrs['svc.tool.outcome'] ?? s.attrs['svc.stop_reason'] ?? 'error');
};

/** The request's text around its spans: `head` + spans joined by commas + `tail`, so a long trace streams. */
export function otlpEnvelope(r: OtlpResource): { traceId: string; head: string; tail: string } {
  const resource = { attributes: attributes({ 'service.name': r.service ?? 'hosted-agent-service', 'gen_ai.conversation.id': r.session, ...r.attrs }) };
  const scope = { name: 'svc', version: SVC_VERSION };
  const head = `{"resourceSpans":[{"resource":${JSON.stringify(resource)},"scopeSpans":[{"scope":${JSON.stringify(scope)},"spans":[`;
  return { traceId: traceIdOf(r.session), head, tail: ']}]}]}' };
}

/** A whole request of these spans (a batch to post). */
export function otlpRequest(r: OtlpResource, spans: Span[]): string {
  const { traceId, head, tail } = otlpEnvelope(r);
  return head + spans.map((s) => JSON.stringify(otlpSpan(traceId, s))).join(',') + tail;
}
