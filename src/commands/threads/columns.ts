import type { Column } from '../../output/table';
import { age } from '../../output/age';
import { threadStateText } from '../../session/state';
import type { Thread } from '../../wire/resources';

export const THREAD_COLUMNS: Column<Thread>[] = [
  { header: 'ID', get: (t) => t.id },
  { header: 'AGENT', get: (t) => t.agent_name },
  { header: 'PARENT', get: (t) => t.parent_thread_id },
  { header: 'STATUS', get: (t) => threadStateText(t) },
  { header: 'EPOCH', get: (t) => t.control_epoch },
  { header: 'ARCHIVED', get: (t) => age(t.archived_at) },
  { header: 'CREATED', get: (t) => age(t.created_at), wide: true },
  { header: 'UPDATED', get: (t) => age(t.updated_at), wide: true },
];
