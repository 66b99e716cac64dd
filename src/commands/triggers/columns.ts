import type { AgentNames } from '../../selection/agent-names';
import type { Column } from '../../output/table';
import { age } from '../../output/age';
import { agentCell } from '../../output/agent-cell';
import { LABELLED_WIDE_COLUMNS, nameColumn } from '../../output/cells';
import type { Trigger, TriggerRun } from '../../wire/resources';

/** A trigger row; with `names`, its agent as `name (agent_…)`, else the bare ID. */
export function triggerColumns(names?: AgentNames): Column<Trigger>[] {
  return [
    { header: 'ID', get: (t) => t.id },
    nameColumn,
    { header: 'MODE', get: (t) => t.session_mode },
    { header: 'STATUS', get: (t) => t.status },
    { header: 'SCHEDULE', get: (t) => (t.schedule ? [t.schedule.expression, t.schedule.timezone].filter(Boolean).join(' ') : '') },
    { header: 'AGENT', get: (t) => agentCell(t.agent_id, names?.nameOf(t.agent_id), t.agent_version) },
    { header: 'UPDATED', get: (t) => age(t.updated_at) },
    { header: 'ENVIRONMENT', get: (t) => t.environment_id, wide: true },
    ...LABELLED_WIDE_COLUMNS,
  ];
}

export const TRIGGER_COLUMNS: Column<Trigger>[] = triggerColumns();

/** `context.type` and `error.type` are open strings: shown as they come, `system` included. */
export const RUN_COLUMNS: Column<TriggerRun>[] = [
  { header: 'ID', get: (r) => r.id },
  { header: 'CONTEXT', get: (r) => r.context?.type },
  { header: 'SESSION', get: (r) => r.session_id },
  { header: 'ERROR', get: (r) => r.error?.type },
  { header: 'CREATED', get: (r) => age(r.created_at) },
];
