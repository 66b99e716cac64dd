import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, type FlagsOf } from '../../cli/flags';
import { write } from '../../runtime/io';
import { RecentHistory } from '../../fleet/history';
import { explainAll } from '../../fleet/explain/gather';
import { groupExplained } from '../../fleet/explain/group';
import { groupsText, sessionText } from '../../fleet/explain/text';
import { FLEET_SELECT_FLAGS, parseFleetPick, selectFleet, type FleetPick } from './fleet-select';
import { pickSessions } from './pick';
import { isSingle } from './selectors';

/** `svc sessions explain`'s flags (the selectors and `--error-type`). */
export const SESSION_EXPLAIN_FLAGS = FLEET_SELECT_FLAGS;

export interface ExplainOptions {
  pick: FleetPick;
  /** One session ID given: that session's explanation, not groups. */
  single: boolean;
}

export function parseExplain(args: string[], flags: FlagsOf<typeof SESSION_EXPLAIN_FLAGS>): ExplainOptions {
  const pick = parseFleetPick(args, flags);
  return { pick, single: isSingle(pick.picked) };
}

export async function runExplain(ctx: Ctx, o: ExplainOptions): Promise<void> {
  const c = await ctx.api();
  const history = new RecentHistory(c);
  // `--error-type` reads the newest events of each failed session: the same page the explanation reads.
  const list = await selectFleet(ctx, c, o.pick, (id) => history.of(id));
  const explained = await explainAll(c, list, history, ctx.now());
  const human = ctx.format === 'table' && !ctx.settings.jq;
  if (ctx.format === 'id') return ctx.out.list(explained, []);
  if (o.single) return human ? write(ctx.io.stdout, sessionText(explained[0])) : ctx.out.item(explained[0]);
  if (!explained.length) return void (await ctx.msg('nothing matched'));
  const groups = groupExplained(explained, o.pick.selection, ctx.now());
  if (human) return write(ctx.io.stdout, groupsText(groups, explained.length));
  await ctx.out.item({ total: explained.length, groups, sessions: explained });
}

export function addExplain(group: Command, kit: Kit): void {
  const cmd = group
    .command('explain')
    .argument('[sessions...]', 'session IDs, or - to read them from standard input')
    .description('Say why sessions stand as they do and the command that moves each on; many are grouped by cause (codes in -o json)');
  addFlags(pickSessions(cmd), SESSION_EXPLAIN_FLAGS);
  examples(cmd, [
    'svc sessions explain SESSION_ID',
    'svc sessions explain --status failed,waiting --newer-than 2h',
    'svc sessions explain --error-type engine_overloaded -o json --jq .groups',
  ]);
  cmd.action(kit.verb(parseExplain, runExplain));
}
