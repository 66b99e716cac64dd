/** `svc sessions diff`'s work, loaded when it runs: both histories read (at once), summarised and compared. */
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { compareSummaries } from '../../diff-sessions/compare';
import { SummaryFold, type SessionSummary } from '../../diff-sessions/summary';
import { comparisonText } from '../../diff-sessions/text';
import { ExitCodeError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { resolveRef } from '../../selection/names';
import { HISTORY_PAGE } from '../../stats/read';
import type { ApiClient } from '../../api/client';
import type { SessionDiffOptions } from './diff';

async function summaryOf(c: ApiClient, ref: string): Promise<SessionSummary> {
  const s = await resolveRef(c, sessions, 'session', ref);
  const fold = new SummaryFold({ id: String(s.id), agent_id: s.agent_id, agent_version: s.agent_version });
  for await (const e of sessions.history(c, String(s.id), {}, { all: true, pageSize: HISTORY_PAGE })) fold.add(e);
  return fold.result();
}

export async function diffSessions(ctx: Ctx, o: SessionDiffOptions): Promise<void> {
  const c = await ctx.api();
  const [a, b] = await Promise.all([summaryOf(c, o.a), summaryOf(c, o.b)]);
  const cmp = compareSummaries(a, b, o.ignore);
  const explicit = ctx.settings.output?.value;
  if (explicit !== undefined && explicit !== 'table') await ctx.out.item(cmp);
  else await write(ctx.io.stdout, comparisonText(cmp, ctx.io.stdout.isTTY ? (ctx.io.stdout.columns ?? 80) : 120));
  // As diff(1): 1 when the compared parts differ; what differs is on stdout already.
  if (!cmp.same) throw new ExitCodeError(1, 'the sessions differ', true);
}
