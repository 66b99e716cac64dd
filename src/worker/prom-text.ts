/**
 * A small writer of the Prometheus text exposition format (version 0.0.4): counters, gauges and histograms with
 * labels, no dependency, so the worker's /metrics costs nothing until --metrics-addr asks for it.
 */

type Labels = Readonly<Record<string, string>>;

/** The content type of {@link Registry.text}. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  lines(): string[];
}

abstract class Labelled<S> implements Family {
  protected readonly series = new Map<string, { labels: Labels; value: S }>();
  abstract readonly type: 'counter' | 'gauge' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  protected at(labels: Labels = {}): { labels: Labels; value: S } {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      const own = Object.fromEntries(this.labelNames.map((n) => [n, labels[n] ?? '']));
      s = { labels: own, value: this.initial() };
      this.series.set(key, s);
    }
    return s;
  }

  protected abstract initial(): S;
  abstract lines(): string[];
}

export class Counter extends Labelled<number> {
  readonly type = 'counter';
  inc(labels?: Labels, by = 1): void {
    this.at(labels).value += by;
  }
  /** Shows the series at 0 before its first event, so a rate over it starts from a known point. */
  touch(labels?: Labels): void {
    this.at(labels);
  }
  protected initial(): number {
    return 0;
  }
  lines(): string[] {
    if (this.series.size === 0) this.touch();
    return [...this.series.values()].map((s) => sample(this.name, s.labels, s.value));
  }
}

export class Gauge extends Labelled<number> {
  readonly type = 'gauge';
  set(value: number, labels?: Labels): void {
    this.at(labels).value = value;
  }
  inc(labels?: Labels, by = 1): void {
    this.at(labels).value += by;
  }
  protected initial(): number {
    return 0;
  }
  lines(): string[] {
    if (this.series.size === 0) this.at();
    return [...this.series.values()].map((s) => sample(this.name, s.labels, s.value));
  }
}

interface Buckets {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Labelled<Buckets> {
  readonly type = 'histogram';
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  observe(value: number, labels?: Labels): void {
    const b = this.at(labels).value;
    for (let i = 0; i < this.bounds.length; i++) if (value <= this.bounds[i]) b.counts[i]++;
    b.sum += value;
    b.count++;
  }
  protected initial(): Buckets {
    return { counts: this.bounds.map(() => 0), sum: 0, count: 0 };
  }
  lines(): string[] {
    const out: string[] = [];
    for (const { labels, value } of this.series.values()) {
      this.bounds.forEach((le, i) => out.push(sample(`${this.name}_bucket`, { ...labels, le: number(le) }, value.counts[i])));
      out.push(sample(`${this.name}_bucket`, { ...labels, le: '+Inf' }, value.count));
      out.push(sample(`${this.name}_sum`, labels, value.sum));
      out.push(sample(`${this.name}_count`, labels, value.count));
    }
    return out;
  }
}

/** The metrics of one process, written in the order they were made. */
export class Registry {
  private readonly families: Family[] = [];

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }
  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames));
  }
  histogram(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, labelNames, bounds));
  }

  text(): string {
    const out: string[] = [];
    for (const f of this.families) {
      const lines = f.lines();
      if (lines.length === 0) continue;
      out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${f.name} ${f.type}`, ...lines);
    }
    return out.join('\n') + '\n';
  }

  private add<F extends Family>(f: F): F {
    this.families.push(f);
    return f;
  }
}

function sample(name: string, labels: Labels, value: number): string {
  const set = Object.entries(labels);
  const l = set.length ? `{${set.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`).join(',')}}` : '';
  return `${name}${l} ${number(value)}`;
}

function number(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}
