import type { AgentNames } from '../../selection/agent-names';
import type { Ctx } from '../../runtime/context';
import type { Column } from '../../output/table';
import type { WireObject } from '../../wire/resources';

/** Columns whose AGENT cell shows the agent's name, built once the rows' agents are read. */
export type NamedColumns<T = WireObject> = (names?: AgentNames) => Column<T>[];

/**
 * Whether what is printed shows agent names: a table of svc's columns only (json, ndjson, yaml, -q and --jq print the
 * service's objects, custom columns read their paths).
 */
export const showsAgentNames = (ctx: Ctx): boolean => ctx.format === 'table' && ctx.settings.jq === undefined && !Array.isArray(ctx.settings.table.columns);

/**
 * The rows and columns of a listing. A table reads each named agent once (a table gathers its rows before drawing
 * anyway); every other format streams the items untouched and never reads an agent.
 */
export async function withAgentNames<T>(
  ctx: Ctx,
  items: AsyncIterable<T> | Iterable<T>,
  columns: NamedColumns<T>,
): Promise<{ items: AsyncIterable<T> | Iterable<T>; columns: Column<T>[] }> {
  if (!showsAgentNames(ctx)) return { items, columns: columns() };
  const rows: T[] = [];
  for await (const row of items) rows.push(row);
  const names = await agentNames(ctx);
  await names.load(rows.map((r) => (r as { agent_id?: unknown } | null)?.agent_id));
  return { items: rows, columns: columns(names) };
}

/** A cache of agent names for the life of one command (a watch reads each agent once, however long it runs). */
export async function agentNames(ctx: Ctx): Promise<AgentNames> {
  const [{ AgentNames }, c] = await Promise.all([import('../../selection/agent-names'), ctx.api()]);
  return new AgentNames(c);
}
