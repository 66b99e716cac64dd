/** Faults a test or a demo switches on (docs/behaviour.md "The emulator"); each firing is counted in stats. */
export interface FaultConfig {
  /** Answer 429 rate_limit_reached_error on every Kth /v1 request. */
  rate_limit_every?: number;
  /** Retry-After seconds sent with those 429s. */
  retry_after?: number;
  /** Answer 429 exceeded_current_quota_error (no Retry-After) on every Kth /v1 request. */
  quota_every?: number;
  /** Answer 500 on every Kth write, after applying it. */
  fail_write_every?: number;
  /** Answer 500 on every Kth write, without applying it. */
  reject_write_every?: number;
  /** Delay every /v1 response by this many ms. */
  delay_ms?: number;
  /** Drop a stream after N frames without an error frame. */
  drop_stream_after?: number;
  /** Send `event: error` after N frames, then close. */
  error_stream_after?: number;
  /** Treat cursors more than N frames behind the newest as expired. */
  expire_cursors_older_than?: number;
  /** Stop accepting heartbeats of this worker ID (or of every worker with "*"). */
  lose_worker?: string;
  /**
   * A model outage: while set, every turn that starts ends at once in a `session.error` of this `error_type`
   * (`engine_overloaded`, `model_unavailable`, …) instead of running its script; clearing it ends the outage.
   */
  model_outage?: string;
}

const NUMERIC = [
  'rate_limit_every',
  'retry_after',
  'quota_every',
  'fail_write_every',
  'reject_write_every',
  'delay_ms',
  'drop_stream_after',
  'error_stream_after',
  'expire_cursors_older_than',
] as const;

/** Parses `--faults` text: `key=value,key=value`. */
export function parseFaults(text: string): FaultConfig {
  const out: Record<string, unknown> = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [k, v] = part.split('=', 2);
    if ((NUMERIC as readonly string[]).includes(k)) {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw new Error(`fault ${k} takes a number`);
      out[k] = n;
    } else if (k === 'lose_worker') out[k] = v ?? '*';
    else if (k === 'model_outage') out[k] = v || 'engine_overloaded';
    else throw new Error(`unknown fault "${k}"; known: ${[...NUMERIC, 'lose_worker', 'model_outage'].join(', ')}`);
  }
  return out as FaultConfig;
}

export class Faults {
  config: FaultConfig = {};
  readonly stats: Record<string, number> = {};
  private requests = 0;
  private writes = 0;
  private attemptedWrites = 0;

  /** Replaces the faults; "every Kth" counts from here. */
  set(config: FaultConfig): void {
    this.config = { ...config };
    this.requests = 0;
    this.writes = 0;
    this.attemptedWrites = 0;
  }

  count(name: string, n = 1): void {
    this.stats[name] = (this.stats[name] ?? 0) + n;
  }

  /** Called once per /v1 request: true when this one is to be throttled. */
  rateLimitNow(): boolean {
    return this.everyKth(++this.requests, this.config.rate_limit_every, 'rate_limited');
  }

  /** Called once per /v1 request (counted with rate limits): true when this one is over quota. */
  overQuotaNow(): boolean {
    return this.everyKth(this.requests, this.config.quota_every, 'over_quota');
  }

  /** Called once per applied write: true when its answer is to be replaced with a 500. */
  failWriteNow(): boolean {
    return this.everyKth(++this.writes, this.config.fail_write_every, 'write_failures');
  }

  /** Called once per write before it is applied: true when it is to be refused with a 500 instead. */
  rejectWriteNow(): boolean {
    return this.everyKth(++this.attemptedWrites, this.config.reject_write_every, 'write_rejections');
  }

  private everyKth(n: number, k: number | undefined, stat: string): boolean {
    if (!k || n % k !== 0) return false;
    this.count(stat);
    return true;
  }
}
