/**
 * Posting spans to an OpenTelemetry collector over OTLP/HTTP JSON, configured as OpenTelemetry's own exporters are
 * (the specification's "OTLP Exporter Configuration"): a base URL gets `/v1/traces` appended;
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is a full URL used as is; `OTEL_EXPORTER_OTLP_HEADERS` (and the
 * `_TRACES_` form, which wins key by key) is `k=v,k2=v2` with URL-encoded values. `--otlp-endpoint URL` is explicit
 * configuration and wins over the environment; `--otlp-endpoint` alone reads it (docs/decisions/trace-spans.md).
 */
import { discard, request } from '../api/http';
import type { Network } from '../api/network';
import { ExitCodeError, UsageError } from '../runtime/errors';
import { otlpRequest, type OtlpResource } from './otlp';
import type { Span } from './spans';

export interface OtlpTarget {
  url: string;
  headers: Record<string, string>;
  /** The run's proxies and extra CA certificates (SVC_CA_FILE, a profile's ca_file), as for the service itself. */
  network?: Network;
}

type Env = Record<string, string | undefined>;

/** `/v1/traces` under a base URL, as the specification joins them (one slash). */
export const tracesUrl = (base: string) => `${base.replace(/\/+$/, '')}/v1/traces`;

/** Where spans go: the flag's base URL (`true`: the flag without one), else the environment's; undefined: nowhere. */
export function otlpTarget(flag: string | true | undefined, env: Env, name = '--otlp-endpoint'): OtlpTarget | undefined {
  if (flag === undefined) return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = flag !== true ? tracesUrl(flag) : traces ? traces : base ? tracesUrl(base) : undefined;
  if (url === undefined) throw new UsageError(`${name} takes the collector's URL, or reads OTEL_EXPORTER_OTLP_ENDPOINT: neither is given`);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${name}: "${url}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${name}: "${url}" is not an http or https URL`);
  return { url, headers: { ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) } };
}

/** `k=v,k2=v2` with URL-encoded values, keys and values trimmed; a malformed pair is skipped (as the SDKs do). */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  // A Map, so a header named __proto__ or constructor is kept as written, never an object's own machinery.
  const out = new Map<string, string>();
  for (const pair of (text ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i <= 0) continue;
    const key = pair.slice(0, i).trim();
    if (!key) continue;
    try {
      out.set(key.toLowerCase(), decodeURIComponent(pair.slice(i + 1).trim()));
    } catch {
      // not valid percent-encoding: skipped
    }
  }
  return Object.fromEntries(out);
}

/** Spans per request, as the SDKs' batch processor sends them. */
export const BATCH = 512;
const RETRIED = new Set([429, 502, 503, 504]);
const ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;

/** Posts spans in batches; 429, 502, 503, 504 and no answer are tried again, with a growing pause. */
export class OtlpExporter {
  private pending: Span[] = [];
  sent = 0;

  constructor(
    private readonly target: OtlpTarget,
    private readonly resource: OtlpResource,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly userAgent = 'svc',
    private readonly attempts = ATTEMPTS,
  ) {}

  async add(spans: Span[]): Promise<void> {
    for (const s of spans) {
      this.pending.push(s);
      if (this.pending.length >= BATCH) await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const spans = this.pending;
    this.pending = [];
    await this.post(otlpRequest(this.resource, spans));
    this.sent += spans.length;
  }

  private async post(body: string): Promise<void> {
    const shown = this.target.url.replace(/\/\/[^@/]*@/, '//');
    for (let attempt = 1; ; attempt++) {
      let status: number | undefined;
      let reason: string;
      try {
        const res = await request(this.target.url, {
          method: 'POST',
          headers: { 'user-agent': this.userAgent, ...this.target.headers, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
          network: this.target.network,
        });
        status = res.statusCode;
        discard(res.body);
        if (status >= 200 && status < 300) return;
        reason = `the collector answered ${status}`;
      } catch (e) {
        reason = `no answer: ${(e as Error).message}`;
      }
      if ((status !== undefined && !RETRIED.has(status)) || attempt >= this.attempts)
        // As the service's own: an answer of another kind is exit 9, none exit 10 (docs/behaviour.md exit codes).
        throw new ExitCodeError(status === undefined ? 10 : 9, `cannot send spans to ${shown}: ${reason}`);
      await this.sleep(500 * 2 ** (attempt - 1));
    }
  }
}
