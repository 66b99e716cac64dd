import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { work, type WorkItem } from '../api/work';
import type { Clock } from './clock';
import type { WorkerLog } from './log';

export type StopOutcome = 'stopped' | 'busy' | 'lost' | 'failed';

/** Attempts at an ack that fails without an answer, inside the delivery window. */
const ACK_ATTEMPTS = 3;

/**
 * The lease of one claimed row, held with the row's session work token: ack, heartbeats well
 * inside `lease_ttl_ms`, stop, and fencing. The lease is lost on 412 (a stale generation), on 401
 * (the token was revoked because the row ended or was reclaimed), or when no heartbeat has landed
 * for a whole `lease_ttl_ms` (tools run only while the lease is valid). Losing it aborts `lost`.
 */
export class Lease {
  private readonly lostCtl = new AbortController();
  private readonly closedCtl = new AbortController();
  private renewedAt = 0;
  /** Given up on purpose at the end of a drain, not lost: see {@link handBack}. */
  handedBack = false;
  /** Lease calls go one at a time, so a heartbeat in flight never races the stop that ends the row. */
  private tail: Promise<unknown> = Promise.resolve();
  readonly ttlMs: number;
  readonly intervalMs: number;
  readonly completion = { starting: 'session idle; completing the row', done: 'row completed' };

  constructor(
    private readonly item: WorkItem,
    private readonly client: ApiClient,
    private readonly log: WorkerLog,
    private readonly clock: Clock,
    heartbeatMs: number | undefined,
  ) {
    this.ttlMs = item.lease_ttl_ms ?? 30_000;
    // A chosen interval is honoured up to half the lease; the default leaves room for two missed beats.
    this.intervalMs = Math.max(10, Math.min(heartbeatMs ?? this.ttlMs / 3, this.ttlMs / 2));
  }

  get lost(): AbortSignal {
    return this.lostCtl.signal;
  }

  private get fields() {
    return { row: this.item.id, session: this.item.session_id, generation: this.item.generation };
  }

  /** Every tool of the row stops at once and nothing more is written for it. */
  lose(reason: string): void {
    if (this.lost.aborted) return;
    this.log.warn('lease lost; abandoning the row', { ...this.fields, reason });
    this.lostCtl.abort(new Error(reason));
    this.close();
  }

  /**
   * The drain's grace time ran out with the row still busy: tools stop, nothing more is written, heartbeats end, so
   * the lease lapses and the service re-queues the row for another worker (the spec has no release call).
   */
  handBack(): void {
    if (this.lost.aborted) return;
    this.handedBack = true;
    this.log.warn('grace time over; handing the row back: its lease lapses and the service re-queues it', this.fields);
    this.lostCtl.abort(new Error('handed back'));
    this.close();
  }

  /** queued → starting, carrying the generation of the claim. */
  async ack(): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.serial(() => work.ack(this.client, this.item.environment_id!, this.item.id, this.item.generation));
        this.renewedAt = this.clock.now();
        this.log.info('row acknowledged', this.fields);
        return true;
      } catch (e) {
        if (this.fenced(e, 'ack')) return false;
        if (attempt >= ACK_ATTEMPTS) {
          this.lose(`ack failed: ${describe(e)}`);
          return false;
        }
        this.log.warn('ack failed; retrying', { ...this.fields, error: describe(e) });
        await this.clock.delay(250 * attempt);
      }
    }
  }

  /** Heartbeats until closed: the first at once (starting → active), then every interval. */
  async heartbeats(): Promise<void> {
    let first = true;
    while (!this.closedCtl.signal.aborted) {
      try {
        const closed = this.closedCtl.signal;
        const beat = await this.serial(async () =>
          closed.aborted ? undefined : { answer: await work.heartbeat(this.client, this.item.environment_id!, this.item.id, this.item.generation, closed) },
        );
        if (!beat) return;
        const refused = leaseRefused(beat.answer);
        if (refused) return this.lose(`heartbeat: ${refused}`);
        this.renewedAt = this.clock.now();
        if (first) this.log.info('lease active', { ...this.fields, heartbeat_ms: Math.round(this.intervalMs) });
        first = false;
      } catch (e) {
        if (this.closedCtl.signal.aborted || this.fenced(e, 'heartbeat')) return;
        this.log.warn('heartbeat failed', { ...this.fields, error: describe(e) });
        if (this.clock.now() - this.renewedAt >= this.ttlMs) return this.lose('no heartbeat landed for a whole lease');
      }
      await this.clock.delay(this.intervalMs, this.closedCtl.signal);
    }
  }

  /**
   * Without `final`: leased → stopping. With `completed`: the row ends; 409 means the
   * session is busy and the lease is still ours to serve.
   */
  async stop(final?: 'completed'): Promise<StopOutcome> {
    if (this.lost.aborted) return 'lost';
    try {
      await this.serial(() => work.stop(this.client, this.item.environment_id!, this.item.id, this.item.generation, final));
      if (final) this.close();
      return 'stopped';
    } catch (e) {
      if (this.fenced(e, 'stop')) return 'lost';
      if (e instanceof ApiError && e.status === 409) return 'busy';
      this.log.warn('stop failed', { ...this.fields, error: describe(e) });
      return 'failed';
    }
  }

  /** The idle-worker stop: the row ends `completed` unless the session is busy (409). */
  complete(): Promise<StopOutcome> {
    return this.stop('completed');
  }

  /** Ends the heartbeats (the row is finished or abandoned). */
  close(): void {
    this.closedCtl.abort();
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.tail.then(op, op);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private fenced(e: unknown, op: string): boolean {
    if (!(e instanceof ApiError) || (e.status !== 412 && e.status !== 401)) return false;
    this.lose(e.status === 412 ? `${op}: 412 stale generation` : `${op}: 401 the session work token was revoked`);
    return true;
  }
}

/**
 * Why a heartbeat's answer says the lease is gone, if it does. The spec's answer is the WorkItem; a service may
 * instead answer `{lease_extended, ttl_seconds, state, …}` (docs/service.md: shapes to tolerate), where
 * `lease_extended: false` means the lease is lost. A row already ended (any spelling of cancelled) is lost too.
 */
export function leaseRefused(answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const a = answer as Record<string, unknown>;
  if (a.lease_extended === false) return 'the service did not extend the lease';
  const status = typeof a.status === 'string' ? a.status : typeof a.state === 'string' ? a.state : undefined;
  if (status && ENDED.has(status)) return `the row is ${status}`;
  return undefined;
}

const ENDED = new Set(['completed', 'failed', 'cancelled', 'canceled']);

export function describe(e: unknown): string {
  if (e instanceof ApiError) return `${e.message} (status=${e.status}${e.type ? ` type=${e.type}` : ''})`;
  return e instanceof Error ? e.message : String(e);
}
