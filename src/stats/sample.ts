/**
 * A sample of durations for percentiles, in bounded memory and mergeable across sessions: the values themselves
 * while there are few (so small histories read exactly), then log buckets 2 % wide (DDSketch's scheme), whose
 * count does not grow with the number of values.
 */
export interface SampleData {
  /** The values (milliseconds), while there are at most EXACT_MAX of them. */
  v?: number[];
  /** Bucket index → count once there are more; bucket i holds values in (γ^(i-1), γ^i]. */
  b?: Record<string, number>;
  /** Values at or below 1 ms, once bucketed. */
  z?: number;
}

const EXACT_MAX = 256;
const GAMMA = 1.02;
const LOG_GAMMA = Math.log(GAMMA);

export class Sample {
  private values: number[] | undefined = [];
  private buckets = new Map<number, number>();
  private low = 0;

  static from(d: SampleData | undefined): Sample {
    const s = new Sample();
    if (d) s.merge(d);
    return s;
  }

  get count(): number {
    if (this.values) return this.values.length;
    let n = this.low;
    for (const c of this.buckets.values()) n += c;
    return n;
  }

  add(ms: number): void {
    if (!Number.isFinite(ms)) return;
    const v = Math.max(0, ms);
    if (this.values) {
      this.values.push(v);
      if (this.values.length > EXACT_MAX) this.bucketAll();
    } else this.bucket(v, 1);
  }

  merge(d: SampleData): void {
    for (const v of d.v ?? []) this.add(v);
    if (d.b || d.z) {
      if (this.values) this.bucketAll();
      this.low += d.z ?? 0;
      for (const [k, c] of Object.entries(d.b ?? {})) this.buckets.set(Number(k), (this.buckets.get(Number(k)) ?? 0) + c);
    }
  }

  /** The nearest-rank percentile (`q` in 0..1), rounded to the millisecond; undefined when empty. */
  quantile(q: number): number | undefined {
    const n = this.count;
    if (n === 0) return undefined;
    const rank = Math.max(1, Math.ceil(q * n));
    if (this.values) return Math.round([...this.values].sort((a, b) => a - b)[rank - 1]);
    let seen = this.low;
    if (seen >= rank) return 0;
    for (const k of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(k)!;
      // The bucket's middle, within 1 % of any value it holds.
      if (seen >= rank) return Math.round((2 * GAMMA ** k) / (GAMMA + 1));
    }
    return undefined;
  }

  data(): SampleData {
    if (this.values) return { v: this.values.slice() };
    return { b: Object.fromEntries(this.buckets), z: this.low };
  }

  private bucketAll(): void {
    const vs = this.values ?? [];
    this.values = undefined;
    for (const v of vs) this.bucket(v, 1);
  }

  private bucket(v: number, c: number): void {
    if (v <= 1) {
      this.low += c;
      return;
    }
    const k = Math.ceil(Math.log(v) / LOG_GAMMA);
    this.buckets.set(k, (this.buckets.get(k) ?? 0) + c);
  }
}

/** `{p50, p95}` of a sample, or null when it holds nothing. */
export function percentiles(s: Sample): { p50: number; p95: number } | null {
  const p50 = s.quantile(0.5);
  const p95 = s.quantile(0.95);
  return p50 === undefined || p95 === undefined ? null : { p50, p95 };
}
