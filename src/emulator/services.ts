import type { SessionPlatform } from './sessions/platform';

/**
 * What emulator modules offer each other, so sessions, the work queue, environments, artifacts,
 * files and triggers can be built and tested apart. Each module sets its entry on `emu.services`
 * when it registers; a caller checks that the entry is there.
 */
export interface SessionsService {
  exists(sessionId: string): boolean;
  /** The session object as GET /v1/sessions/{id} returns it. */
  get(sessionId: string): Record<string, unknown> | undefined;
  /** An active execution or new queued input (the idle-worker stop rule of the WorkItem table). */
  isBusy(sessionId: string): boolean;
  /** Cancels a still-busy session (stop with final_status completed on a stopping row). */
  cancel(sessionId: string): void;
  /** Creates a session as POST /v1/sessions would (triggers). Throws HttpError on a bad body. */
  create(body: Record<string, unknown>): { id: string };
  /** Queues input as POST /v1/sessions/{id}/events would (triggers). Throws HttpError when rejected. */
  send(sessionId: string, type: 'next_turn' | 'steer', events: unknown[]): { event_id?: string };
  /** Whether the session stopped idle on an execution error (trigger skip reason session_failed). */
  failedIdle(sessionId: string): boolean;
  /** Whether the session's pending-input queue is full (trigger skip reason session_queue_full). */
  queueFull(sessionId: string): boolean;
  /** What the platform did around the session's model (MCP traffic, model requests' tools), for admin paths. */
  platform?(sessionId: string): SessionPlatform | undefined;
  /** Appends `count` finished turns' events straight to the log, the last one `session.status` idle (benchmarks). */
  seedEvents(sessionId: string, count: number): void;
  /**
   * Appends hand-built events to the history exactly as given (`id`, `type`, `processed_at`, …; an `id` is made
   * where missing) and applies `changes` to the session (its status, stop reason, …), touching `updated_at`
   * (to now, or to `changes.updated_at` when given).
   */
  appendHistory?(sessionId: string, events: Array<Record<string, unknown>>, changes?: Record<string, unknown>): void;
}

export interface AgentsService {
  /** Creates an agent as POST /v1/agents would. Throws HttpError on a bad body. */
  create(body: Record<string, unknown>): { id: string };
}

export interface WorkService {
  /** A session on a self-hosted environment has work: queue a row unless one is queued or leased. */
  ensureRow(sessionId: string, environmentId: string): void;
  /** The session ended (archived, deleted): its row, if any, ends as `cancelled`. */
  endRow(sessionId: string): void;
  /** The session's interrupt completed: its live row ends and the lease is released. */
  releaseRow(sessionId: string): void;
}

export interface EnvironmentsService {
  get(environmentId: string): { id: string; config: { type: string } } | undefined;
}

export interface ArtifactsService {
  /** A session delivered an artifact (the /artifact directive); a repeat name adds a version. */
  deliver(sessionId: string, name: string, content: Buffer, mimeType?: string): { id: string; version: number };
}

export interface FilesService {
  /** For binding a file to a session: `compat` files (uploaded without the version header) cannot be mounted, nor `batch` files. */
  get(fileId: string): { id: string; compat: boolean; purpose?: string; filename?: string } | undefined;
}

export interface Services {
  agents?: AgentsService;
  sessions?: SessionsService;
  work?: WorkService;
  environments?: EnvironmentsService;
  artifacts?: ArtifactsService;
  files?: FilesService;
}
