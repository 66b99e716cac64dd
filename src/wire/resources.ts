/**
 * The resource objects the client reads, as the spec and docs/service.md name their members. Every member is optional and
 * every object keeps members it does not name (`[member: string]: unknown`): a service may leave one out or add new
 * ones, and a view that passes the object through (JSON, YAML, NDJSON) must keep what it did not understand. Enum
 * members are open strings beside the known values, so a newer service's word reaches the screen as sent.
 */
import type { InputMode, SessionStatus, StopReason } from './events';

/** A known value, or another one a newer service sends. */
type Open<T extends string> = T | (string & {});

/** What every object of docs/service.md "Common shapes" carries. */
export interface WireObject {
  id?: string;
  created_at?: string;
  updated_at?: string;
  /** Null while active, on archivable resources. */
  archived_at?: string | null;
  /** A string→string map. */
  metadata?: Record<string, string>;
  [member: string]: unknown;
}

/** A list response of the spec: `{items, next_page_token}`. */
export interface WirePage<T> {
  items: T[];
  next_page_token?: string | null;
}

// docs/service.md: Agents.
export interface Agent extends WireObject {
  name?: string;
  description?: string | null;
  /** A model name, or `{id, reasoning_effort}`. */
  model?: string | { id?: string; reasoning_effort?: string; [member: string]: unknown };
  system?: string | null;
  version?: number;
  tools?: unknown[];
  mcp_servers?: unknown[];
  skills?: unknown[];
  plugins?: unknown[];
  roster?: unknown[];
}

// docs/service.md: Sessions; the spec's "Control epoch" for the control members.
export interface Session extends WireObject {
  agent_id?: string;
  agent_version?: number;
  environment_id?: string | null;
  title?: string | null;
  status?: Open<SessionStatus>;
  stopping?: boolean;
  interrupted?: boolean;
  control_epoch?: string;
  continue_pending?: boolean;
  requires_action?: boolean;
  stop_reason?: StopReason | null;
  agent_overrides?: Record<string, unknown>;
  resources?: SessionResource[];
  vault_ids?: string[];
}

/** Spec: Session resource binding (a file binding; other types are not shown). */
export interface SessionResource extends WireObject {
  type?: Open<'file'>;
  file_id?: string;
}

// docs/service.md: Threads.
export interface Thread extends WireObject {
  session_id?: string;
  /** Null for the coordinator. */
  parent_thread_id?: string | null;
  agent_name?: string;
  status?: Open<'idle' | 'running' | 'cancelled'>;
  interrupted?: boolean;
  control_epoch?: string;
}

/** Spec: Queued input entry (pending list item). */
export interface PendingInput {
  event_id?: string;
  type?: Open<InputMode>;
  events?: unknown[];
  queued_at?: string;
  [member: string]: unknown;
}

// docs/service.md: Environments and work.
export interface Environment extends WireObject {
  name?: string;
  description?: string | null;
  config?: { type?: Open<'cloud' | 'self_hosted'>; proxy?: { mode?: string; hosts?: string[] }; [member: string]: unknown };
}

export const WORK_ITEM_STATUSES = ['queued', 'starting', 'active', 'stopping', 'completed', 'failed', 'cancelled'] as const;

/** Spec: WorkItem. `secret` is only on the poll that claims the row, and is never shown or kept. */
export interface WorkItem extends WireObject {
  session_id?: string;
  environment_id?: string;
  status?: Open<(typeof WORK_ITEM_STATUSES)[number]>;
  generation?: number;
  worker_id?: string;
  lease_ttl_ms?: number;
  claimed_at?: string;
  acknowledged_at?: string;
  started_at?: string;
  latest_heartbeat_at?: string;
  stop_requested_at?: string;
  stopped_at?: string;
  secret?: string;
}

// docs/service.md: Other resources.
export interface Vault extends WireObject {
  name?: string;
  description?: string | null;
}

/** `value` is write-only: a service never returns it. */
export interface VaultCredential extends WireObject {
  name?: string;
  type?: Open<'static_bearer' | 'environment_variable' | 'mcp_oauth'>;
  egress_environment_id?: string | null;
}

export interface Skill extends WireObject {
  name?: string;
  version?: string | number;
  categories?: string[];
}

/** Spec: Plugin list item. */
export interface Plugin extends WireObject {
  name?: string;
  scope?: Open<'official' | 'project'>;
  status?: string;
  latest_version?: string;
  version?: string;
  categories?: string[];
}

/** Spec: Memory store. */
export interface MemoryStore extends WireObject {
  name?: string;
  description?: string | null;
}

export interface Memory extends WireObject {
  memory_store_id?: string;
  path?: string;
  content?: string;
  content_base64?: string;
}

/** Spec: Memory version; the members the spec names only by meaning take the names docs/service.md gives them. */
export interface MemoryVersion extends WireObject {
  memory_store_id?: string;
  memory_id?: string;
  path?: string;
  operation?: Open<'created' | 'modified' | 'deleted' | 'renamed'>;
  source?: Open<'api' | 'session'>;
  redacted_at?: string | null;
  content_base64?: string;
  content_sha256?: string;
  content_size_bytes?: number;
  session_id?: string;
  sequence?: number;
}

export interface Dream extends WireObject {
  memory_store_id?: string;
  instructions?: string | null;
  status?: string;
}

export interface Trigger extends WireObject {
  name?: string;
  agent_id?: string;
  agent_version?: number;
  environment_id?: string;
  session_mode?: Open<'new_session' | 'reuse_session'>;
  schedule?: { type?: string; expression?: string; timezone?: string; [member: string]: unknown } | null;
  status?: Open<'active' | 'paused'>;
  paused_reason?: { type?: string; error?: TriggerError; [member: string]: unknown } | null;
  initial_events?: unknown[];
}

/** Spec rule 11: `type` is an open, display-only string. */
export interface TriggerError {
  type?: string;
  message?: string;
  [member: string]: unknown;
}

export interface TriggerRun extends WireObject {
  trigger_id?: string;
  session_id?: string | null;
  context?: { type?: Open<'manual' | 'system' | 'schedule'>; [member: string]: unknown };
  error?: TriggerError | null;
}

export interface Artifact extends WireObject {
  session_id?: string;
  name?: string;
  version?: string | number;
}

export interface SvcFile extends WireObject {
  filename?: string;
  mime_type?: string;
  size_bytes?: number;
  extract_status?: string;
}
