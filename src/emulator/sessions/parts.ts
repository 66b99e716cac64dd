import type { DeltaEvent, InputMode, StopReason } from '../../wire/events';
import type { Faults } from '../faults';
import type { Services } from '../services';
import type { Collection, Rec } from '../store';
import type { MessageEvent } from './input';
import type { EgressLookup, SessionPlatform } from './platform';
import type { PendingReplies } from './replies';

export type SessionRec = Rec & {
  agent_id: string;
  agent_version: number;
  environment_id: string | null;
  title: string;
  status: 'idle' | 'running' | 'rescheduling' | 'terminated';
  stopping: boolean;
  interrupted: boolean;
  control_epoch: string;
  continue_pending: boolean;
  requires_action: boolean;
  stop_reason: StopReason | null;
  agent_overrides: Record<string, unknown>;
  resources: Array<{ type: string; id: string; file_id?: string }>;
  vault_ids: string[];
  metadata: Record<string, string>;
  archived_at: string | null;
  /** Write-only headers of the `agent_overrides.mcp_servers`, by server identity. */
  _mcp_headers?: Record<string, Record<string, string>>;
};

export type ThreadRec = Rec & {
  session_id: string;
  parent_thread_id: string | null;
  agent_name: string;
  status: 'idle' | 'running' | 'cancelled';
  interrupted: boolean;
  control_epoch: string;
  archived_at: string | null;
};

export interface PendingInput {
  event_id: string;
  type: InputMode;
  events: MessageEvent[];
  queued_at: string;
}

export interface RuntimeDeps {
  sessions: Collection<SessionRec>;
  threads: Collection<ThreadRec>;
  services: Services;
  faults: Faults;
  heartbeatMs: number;
  stepMs: number;
  model: string;
  /** The session's effective sub-agent roster (overrides, else the agent version's). */
  roster: unknown[];
  /** Names of the effective agent's MCP servers. */
  mcpServers: string[];
  /** The effective agent's `tools` entries (none when omitted). */
  tools?: unknown[];
  /** What the routes of the session's outbound requests depend on (none: every request goes direct). */
  egress?: EgressLookup;
}

/** What the turn and control parts of a session's runtime share: its records, history and awaited replies. */
export interface SessionParts {
  readonly rec: SessionRec;
  readonly coordinator: ThreadRec;
  readonly deps: RuntimeDeps;
  readonly queue: PendingInput[];
  readonly replies: PendingReplies;
  readonly platform: SessionPlatform;
  /** The session's environment is self-hosted (read each time: the environment may change). */
  selfHosted(): boolean;
  /** Appends an event to history and fans it out; returns its id. */
  emit(type: string, data?: Record<string, unknown>, o?: { threadId?: string; id?: string; epoch?: string }): string;
  delta(threadId: string | undefined, data: DeltaEvent['data']): void;
  set(changes: Partial<SessionRec>): void;
  setThread(t: ThreadRec, changes: Partial<ThreadRec>): void;
  /** Starts the next queued input when nothing holds the session back. */
  pump(): void;
}
