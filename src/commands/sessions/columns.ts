import type { SessionEvent } from '../../wire/events';
import type { PendingInput, Session, SessionResource } from '../../wire/resources';
import type { AgentNames } from '../../selection/agent-names';
import { age } from '../../output/age';
import { LABELLED_WIDE_COLUMNS } from '../../output/cells';
import { agentCell } from '../../output/agent-cell';
import type { Column } from '../../output/table';
import { blocksText, eventSummary } from '../../output/transcript';
import { sessionStateText } from '../../session/state';

/** A session row; with `names`, its agent as `name (agent_…@version)`, else the bare ID. */
export function sessionColumns(names?: AgentNames): Column<Session>[] {
  return [
    { header: 'ID', get: (s) => s.id },
    { header: 'TITLE', get: (s) => s.title },
    { header: 'STATUS', get: (s) => sessionStateText(s) },
    { header: 'AGENT', get: (s) => agentCell(s.agent_id, names?.nameOf(s.agent_id), s.agent_version) },
    { header: 'EPOCH', get: (s) => s.control_epoch },
    { header: 'UPDATED', get: (s) => age(s.updated_at) },
    { header: 'ENVIRONMENT', get: (s) => s.environment_id, wide: true },
    ...LABELLED_WIDE_COLUMNS,
  ];
}

export const SESSION_COLUMNS: Column<Session>[] = sessionColumns();

export const PENDING_COLUMNS: Column<PendingInput>[] = [
  { header: 'EVENT_ID', get: (p) => p.event_id },
  { header: 'TYPE', get: (p) => p.type },
  { header: 'QUEUED', get: (p) => age(p.queued_at) },
  { header: 'TEXT', get: (p) => (Array.isArray(p.events) ? p.events.map((e) => blocksText((e as SessionEvent | undefined)?.data?.content)).join(' | ') : '') },
];

export const RESOURCE_COLUMNS: Column<SessionResource>[] = [
  { header: 'ID', get: (r) => r.id },
  { header: 'TYPE', get: (r) => r.type },
  { header: 'FILE_ID', get: (r) => r.file_id },
];

export const EVENT_COLUMNS: Column<SessionEvent>[] = [
  { header: 'ID', get: (e) => e.id },
  { header: 'TIME', get: (e) => age(e.processed_at) },
  { header: 'THREAD', get: (e) => e.session_thread_id },
  { header: 'TYPE', get: (e) => e.type },
  { header: 'SUMMARY', get: (e) => eventSummary(e) },
];
