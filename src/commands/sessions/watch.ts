import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { agentNames, showsAgentNames } from '../../cli/verbs/agent-names';
import type { AgentNames } from '../../selection/agent-names';
import { runWatchView, type WatchCell, type WatchViewOptions } from '../../watch/rows';
import { agentCell } from '../../output/agent-cell';
import { sessionStateText, type SessionStateInput } from '../../session/state';
import { sessionColumns } from './columns';

/** The session rows; with `names`, the agent as `name (agent_…@version)`. */
const sessionCells = (names?: AgentNames): WatchCell[] => [
  { header: 'ID', width: 30, get: (s) => s.id },
  { header: 'STATUS', width: 12, get: (s: Obj) => (s.archived_at ? 'archived' : sessionStateText(s as SessionStateInput)) },
  { header: 'TITLE', width: 30, get: (s) => s.title },
  { header: 'AGENT', width: 36, get: (s) => agentCell(s.agent_id, names?.nameOf(s.agent_id), s.agent_version) },
];

/**
 * The watched session list: kubectl-style rows with an age column on a terminal, NDJSON `{"type","object"}` off it.
 * Rows read each agent's name once for the whole watch; nothing else reads an agent.
 */
export async function runWatch(ctx: Ctx, o: Omit<WatchViewOptions, 'cells'>): Promise<void> {
  const names = showsAgentNames(ctx) ? await agentNames(ctx) : undefined;
  return runWatchView(ctx, {
    ...o,
    cells: sessionCells(names),
    columns: sessionColumns(names),
    beforeRow: names && ((s) => names.load([s.agent_id])),
  });
}
