import { SVC_VERSION } from '../version';
import type { PollOutcome, RowEnd, ToolOutcome, WorkerMetrics } from './metrics';
import { Registry } from './prom-text';
import { SANDBOX_TOOL_NAMES } from './tools/index';

/** /readyz turns 503 once no poll has succeeded for this long (a failure back-off included). */
export const READY_STALE_MS = 10_000;

const TOOL_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const COMMAND_BUCKETS = [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

export interface StatusOptions {
  now: () => number;
  staleMs?: number;
  /** The long poll's own wait: a poll in flight longer than this and `staleMs` counts as failing. */
  blockMs: number;
}

/**
 * The worker's metrics (`svc_worker_*`, Prometheus conventions: `_total` counters, seconds, bounded labels: no
 * session or row IDs, tool names bounded to the sandbox tools and "other") and its readiness.
 */
export class WorkerStatus implements WorkerMetrics {
  readonly registry = new Registry();
  private readonly m;
  private readonly startedAt: number;
  private lastOkAt?: number;
  private failing?: string;
  private inFlightSince?: number;
  private isDraining = false;

  constructor(private readonly o: StatusOptions) {
    this.startedAt = o.now();
    const r = this.registry;
    this.m = {
      claimed: r.counter('svc_worker_rows_claimed_total', 'Work rows this worker claimed from the queue.'),
      completed: r.counter('svc_worker_rows_completed_total', 'Claimed rows that ended completed: the session went idle and the row was stopped.'),
      failed: r.counter('svc_worker_rows_failed_total', 'Claimed rows that could not be served (an incomplete row, an unreadable secret, an error).'),
      stopped: r.counter('svc_worker_rows_stopped_total', 'Rows stopped at shutdown (Ctrl-C): tools cancelled, results written, row stopped.'),
      handedBack: r.counter('svc_worker_rows_handed_back_total', 'Rows still busy when the drain grace time ran out: left to lapse and be re-queued.'),
      leasesLost: r.counter('svc_worker_leases_lost_total', 'Leases lost: 412 stale generation, a revoked session token, no heartbeat for a whole lease.'),
      inFlight: r.gauge('svc_worker_rows_in_flight', 'Rows held by this worker now.'),
      toolCalls: r.counter('svc_worker_tool_calls_total', 'Sandbox tool calls run by this worker, by tool and outcome (ok, error, cancelled).', [
        'tool',
        'outcome',
      ]),
      toolSeconds: r.histogram('svc_worker_tool_duration_seconds', 'How long each sandbox tool call ran, by tool.', ['tool'], TOOL_BUCKETS),
      polls: r.counter('svc_worker_polls_total', 'Polls of the work queue by outcome (claimed, empty, error).', ['outcome']),
      lastPoll: r.gauge('svc_worker_last_successful_poll_timestamp_seconds', 'Unix time of the last poll the service answered.'),
      commandExits: r.counter(
        'svc_worker_on_work_exits_total',
        'Exits of the --on-work command by exit code ("signal" when a signal ended it, "error" when it did not start).',
        ['code'],
      ),
      commandSeconds: r.histogram('svc_worker_on_work_duration_seconds', 'How long each run of the --on-work command lasted.', [], COMMAND_BUCKETS),
      draining: r.gauge('svc_worker_draining', '1 once SIGTERM stopped the polls and the rows in flight are finishing.'),
      buildInfo: r.gauge('svc_build_info', 'The svc version and Node.js version of this worker; always 1.', ['version', 'node_version']),
    };
    for (const outcome of ['claimed', 'empty', 'error']) this.m.polls.touch({ outcome });
    this.m.buildInfo.set(1, { version: SVC_VERSION, node_version: process.version.replace(/^v/, '') });
  }

  pollStarted(): void {
    this.inFlightSince = this.o.now();
  }

  polled(outcome: PollOutcome, error?: string): void {
    this.inFlightSince = undefined;
    this.m.polls.inc({ outcome });
    if (outcome === 'error') {
      this.failing = error ?? 'the poll failed';
      return;
    }
    this.failing = undefined;
    this.lastOkAt = this.o.now();
    this.m.lastPoll.set(this.lastOkAt / 1000);
  }

  rowClaimed(): void {
    this.m.claimed.inc();
    this.m.inFlight.inc();
  }

  rowEnded(end: RowEnd): void {
    this.m.inFlight.inc(undefined, -1);
    // An abandoned row is counted where its lease was lost.
    const counter = { completed: this.m.completed, failed: this.m.failed, stopped: this.m.stopped, handed_back: this.m.handedBack, abandoned: undefined }[end];
    counter?.inc();
  }

  leaseLost(): void {
    this.m.leasesLost.inc();
  }

  toolCall(tool: string, outcome: ToolOutcome, seconds: number): void {
    const name = SANDBOX_TOOL_NAMES.includes(tool) ? tool : 'other';
    this.m.toolCalls.inc({ tool: name, outcome });
    this.m.toolSeconds.observe(seconds, { tool: name });
  }

  commandExited(exit: { exit_code?: number; signal?: string; error?: string }, seconds: number): void {
    const code = exit.exit_code !== undefined ? String(exit.exit_code) : exit.signal ? 'signal' : 'error';
    this.m.commandExits.inc({ code });
    this.m.commandSeconds.observe(seconds);
  }

  draining(): void {
    this.isDraining = true;
    this.m.draining.set(1);
  }

  /** `/readyz`: ready while polling works; 503 while draining or once no poll has succeeded for `staleMs`. */
  readiness(): { ready: boolean; reason: string } {
    if (this.isDraining) return { ready: false, reason: 'draining: no more polls; the rows in flight finish or are handed back' };
    const now = this.o.now();
    const staleMs = this.o.staleMs ?? READY_STALE_MS;
    const since = Math.round((now - (this.lastOkAt ?? this.startedAt)) / 1000);
    if (this.failing !== undefined && now - (this.lastOkAt ?? this.startedAt) >= staleMs)
      return { ready: false, reason: `no successful poll for ${since} s: ${this.failing}` };
    // A long poll the service holds is healthy; one held well past its own wait is a service that stopped answering.
    if (this.inFlightSince !== undefined && now - this.inFlightSince >= this.o.blockMs + staleMs)
      return { ready: false, reason: `no successful poll for ${since} s: a poll has had no answer for ${Math.round((now - this.inFlightSince) / 1000)} s` };
    return { ready: true, reason: 'ok' };
  }
}
