import { fail, notFound, precondition } from '../errors';
import type { Emulator } from '../server';
import { nowIso, type Collection } from '../store';
import { LEASED, isDelivered, isLive, type WorkRow, type WorkStatus } from './row';
import { Waiters } from './waiters';

// docs/service.md: work poll, an unacknowledged row returns to the queue after a delivery window of 30 s.
export const DELIVERY_WINDOW_MS = 30_000;
/** The spec does not state a lease length; 30 s gives a worker heartbeating every 10 s room for two misses. */
export const LEASE_TTL_MS = 30_000;

/** The WorkItem state table (spec: States and transitions → WorkItem) over one collection of rows. */
export class WorkQueue {
  private readonly waiters = new Waiters();
  /** Session work token of each row holding one; kept out of the snapshot, so a restart loses leases. */
  private readonly tokens = new Map<string, string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly emu: Emulator,
    private readonly rows: Collection<WorkRow>,
  ) {}

  private get leaseTtlMs(): number {
    return this.emu.options.leaseTtlMs ?? LEASE_TTL_MS;
  }

  private get reclaimGraceMs(): number {
    return this.emu.options.reclaimGraceMs ?? 0;
  }

  private get deliveryWindowMs(): number {
    return this.emu.options.deliveryWindowMs ?? DELIVERY_WINDOW_MS;
  }

  /** A session has work: queue a row unless it already has a queued or leased one. */
  ensureRow(sessionId: string, environmentId: string): void {
    this.sweep();
    if (this.rows.values().some((row) => row.session_id === sessionId && isLive(row))) return;
    this.rows.insert({ session_id: sessionId, environment_id: environmentId, status: 'queued', generation: 1, lease_ttl_ms: this.leaseTtlMs });
    this.waiters.wake(environmentId);
  }

  /** The session ended: its live row ends as `cancelled`. */
  endRow(sessionId: string): void {
    this.sweep();
    for (const row of this.rows.values()) if (row.session_id === sessionId && isLive(row)) this.finish(row, 'cancelled');
  }

  /**
   * The session's interrupt finished winding down: its live row ends and the lease is released, even
   * with queued input left; a Continue queues the session's work again.
   * Assumption: a released row ends `completed` — the state table releases leases only on the moves into
   * `completed`, and which moves lead into `failed` or `cancelled` is not shown.
   */
  releaseRow(sessionId: string): void {
    this.sweep();
    for (const row of this.rows.values()) if (row.session_id === sessionId && isLive(row)) this.finish(row, 'completed');
  }

  /** The row, if it belongs to the environment; 404 otherwise. */
  row(environmentId: string, id: string): WorkRow {
    this.sweep();
    const row = this.rows.get(id);
    return row && row.environment_id === environmentId ? row : notFound('work row', id);
  }

  list(environmentId: string): WorkRow[] {
    this.sweep();
    return this.rows.values().filter((row) => row.environment_id === environmentId);
  }

  /** Claims the oldest undelivered row, waiting up to `blockMs` for one (long poll). */
  async poll(environmentId: string, workerId: string, blockMs: number, signal: AbortSignal): Promise<{ row: WorkRow; token: string } | undefined> {
    const until = Date.now() + blockMs;
    for (;;) {
      const claimed = this.claim(environmentId, workerId);
      if (claimed) return claimed;
      const left = until - Date.now();
      if (left <= 0 || signal.aborted || this.waiters.isClosed) return undefined;
      this.emu.faults.count('work_long_polls');
      await this.waiters.wait(environmentId, left, signal);
    }
  }

  private claim(environmentId: string, workerId: string): { row: WorkRow; token: string } | undefined {
    this.sweep();
    const row = this.rows.values().find((r) => r.environment_id === environmentId && r.status === 'queued' && !isDelivered(r));
    if (!row) return undefined;
    const token = this.emu.credentials.issue({ kind: 'session', sessionId: row.session_id, workId: row.id, environmentId });
    this.tokens.set(row.id, token);
    this.rows.touch(row, { worker_id: workerId, claimed_at: nowIso(), _deadline: Date.now() + this.deliveryWindowMs });
    this.schedule();
    return { row, token };
  }

  /** queued (delivered, window running) → starting. */
  ack(row: WorkRow, generation: number): WorkRow {
    this.fence(row, generation);
    if (row.status === 'starting') return row; // a retried ack changes nothing
    if (!isDelivered(row))
      precondition(`work row ${row.id} is ${row.status === 'queued' ? 'not delivered' : row.status}; only a delivered queued row can be acknowledged`);
    this.rows.touch(row, { status: 'starting', acknowledged_at: nowIso(), _deadline: Date.now() + row.lease_ttl_ms });
    this.schedule();
    return row;
  }

  /** starting → active (first), active → active, stopping → stopping; each renews the lease. */
  heartbeat(row: WorkRow, generation: number): WorkRow {
    this.fence(row, generation);
    if (!LEASED.includes(row.status)) precondition(`work row ${row.id} is ${row.status}; heartbeats need an acknowledged lease`);
    const lost = this.emu.faults.config.lose_worker;
    if (lost !== undefined && (lost === '*' || lost === row.worker_id)) {
      // docs/behaviour.md "The emulator" lose_worker: the heartbeat never lands, so the lease runs out and the row is re-queued.
      this.emu.faults.count('lose_worker');
      fail('server_error', 'the heartbeat was not accepted (injected fault lose_worker)');
    }
    const at = nowIso();
    this.rows.touch(row, {
      ...(row.status === 'starting' ? { status: 'active' as const, started_at: at } : {}),
      latest_heartbeat_at: at,
      _deadline: Date.now() + row.lease_ttl_ms,
    });
    this.schedule();
    return row;
  }

  /** Without final_status: leased → stopping. With `completed`: stopping → completed, or the idle-worker stop. */
  stop(row: WorkRow, generation: number, finalStatus: 'completed' | undefined): WorkRow {
    this.fence(row, generation);
    if (!LEASED.includes(row.status)) precondition(`work row ${row.id} is ${row.status}; only a leased row can be stopped`);
    const sessions = this.emu.services.sessions;
    if (finalStatus === undefined) {
      this.rows.touch(row, { status: 'stopping', stop_requested_at: row.stop_requested_at ?? nowIso() });
      return row;
    }
    const busy = sessions?.isBusy(row.session_id) ?? false;
    if (row.status === 'stopping') {
      if (busy) sessions?.cancel(row.session_id);
    } else if (busy) {
      precondition(`session ${row.session_id} has an active execution or new input; keep serving the lease`, 409);
    }
    this.finish(row, 'completed');
    return row;
  }

  /** Stops timers and answers parked long polls (emu.onClose). */
  close(): void {
    clearTimeout(this.timer);
    this.waiters.close();
  }

  /** 412 on a stale generation. */
  private fence(row: WorkRow, generation: number): void {
    if (generation !== row.generation) {
      fail(
        'failed_precondition_error',
        `generation ${generation} is stale; work row ${row.id} is at generation ${row.generation}: abandon the lease and poll again`,
        undefined,
        412,
      );
    }
  }

  private finish(row: WorkRow, status: WorkStatus): void {
    this.revokeToken(row);
    this.rows.touch(row, { status, stopped_at: nowIso(), worker_id: undefined, _deadline: undefined });
  }

  /**
   * A lost worker: its lease ran out, or it never acknowledged within the delivery window. Counting the
   * silent claimant as lost too bumps the generation, so its late ack or heartbeat is fenced with 412.
   */
  private requeue(row: WorkRow): void {
    this.revokeToken(row);
    this.rows.touch(row, {
      status: 'queued',
      generation: row.generation + 1,
      worker_id: undefined,
      claimed_at: undefined,
      acknowledged_at: undefined,
      started_at: undefined,
      latest_heartbeat_at: undefined,
      _deadline: undefined,
    });
    this.emu.faults.count('work_rows_requeued');
    this.waiters.wake(row.environment_id);
  }

  private revokeToken(row: WorkRow): void {
    const token = this.tokens.get(row.id);
    if (token !== undefined) this.emu.credentials.revoke(token);
    this.tokens.delete(row.id);
  }

  /** Re-queues every row whose window or lease has run out, then arms the timer for the next deadline. */
  private sweep(): void {
    const now = Date.now();
    for (const row of this.rows.values()) if (row._deadline !== undefined && row._deadline + this.reclaimGraceMs <= now) this.requeue(row);
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.waiters.isClosed) return;
    const deadlines = this.rows.values().flatMap((row) => (row._deadline === undefined ? [] : [row._deadline + this.reclaimGraceMs]));
    if (deadlines.length === 0) return;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, Math.min(...deadlines) - Date.now()));
    this.timer.unref();
  }
}
