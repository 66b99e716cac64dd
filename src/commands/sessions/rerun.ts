import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { exitCodeFor, UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { RESULT_COLUMNS, runBulk, type BulkAction, type BulkOptions, type BulkResult } from '../../bulk/execute';
import type { Column } from '../../output/table';
import { parseDuration } from '../../text/duration';
import type { Session } from '../../wire/resources';
import { inParallel } from '../../async/parallel';
import { wholeHistory } from '../../fleet/history';
import { READS_IN_FLIGHT } from '../../fleet/reads';
import { existingAttempts, existingFor, rerunOne, type Settle } from '../../fleet/rerun/execute';
import { isRefusal, planRerun, type RerunOptions, type RerunPlan, type Refusal } from '../../fleet/rerun/plan';
import { FLEET_SELECT_FLAGS, parseFleetPick, selectFleet, type FleetPick } from './fleet-select';
import { BULK_FLAGS, parseBulk } from './many';
import { pickSessions } from './pick';

const DEFAULT_MAX = 100;

/** `svc sessions rerun`'s flags: its own, the bulk ones (said of reruns), then the selectors. */
export const SESSION_RERUN_FLAGS = flagTable({
  turns: { flags: '--turns <n>', description: 'replay only the first N user messages' },
  agentVersion: { flags: '--agent-version <n>', description: "pin this agent version (default: the original's)" },
  latest: { flags: '--latest', description: "run the agent's current version (default: the original's)" },
  force: { flags: '--force', description: 'rerun a running original from its history so far (default: refused)' },
  max: { flags: '--max <n>', description: `refuse more than N originals (default ${DEFAULT_MAX}, which --yes lifts; a --max given holds with --yes)` },
  yes: BULK_FLAGS.yes,
  dryRun: { ...BULK_FLAGS.dryRun, description: 'print what would be rerun and send nothing' },
  concurrency: { ...BULK_FLAGS.concurrency, description: 'originals rerun at once (default 4)' },
  failFast: { ...BULK_FLAGS.failFast, description: 'stop at the first rerun that fails' },
  wait: { flags: '--wait', description: 'then wait until the new sessions settle, with the exit codes of `sessions wait`' },
  timeout: { flags: '--timeout <duration>', description: 'with --wait: give up after this long (exit 124)' },
  ...FLEET_SELECT_FLAGS,
});

export interface RerunCommandOptions {
  pick: FleetPick;
  rerun: RerunOptions;
  bulk: BulkOptions;
  max: number;
  /** --max was given: it bounds the run even with --yes. */
  maxGiven: boolean;
  wait: boolean;
  timeoutMs?: number;
}

export function parseRerun(args: string[], flags: FlagsOf<typeof SESSION_RERUN_FLAGS>): RerunCommandOptions {
  const pick = parseFleetPick(args, flags);
  if (flags.agentVersion !== undefined && flags.latest) throw new UsageError('give --agent-version N or --latest, not both');
  if (flags.timeout !== undefined && !flags.wait) throw new UsageError('--timeout bounds --wait: add --wait, or drop --timeout');
  return {
    pick,
    rerun: {
      ...(flags.turns !== undefined ? { turns: parseCount(flags.turns, '--turns', 1) } : {}),
      ...(flags.agentVersion !== undefined ? { agentVersion: parseCount(flags.agentVersion, '--agent-version', 1) } : {}),
      latest: Boolean(flags.latest),
      force: Boolean(flags.force),
    },
    bulk: parseBulk(flags),
    max: flags.max === undefined ? DEFAULT_MAX : parseCount(flags.max, '--max', 1),
    maxGiven: flags.max !== undefined,
    wait: Boolean(flags.wait),
    timeoutMs: flags.timeout === undefined ? undefined : parseDuration(flags.timeout, '--timeout'),
  };
}

const COLUMNS: Column<BulkResult>[] = [
  ...RESULT_COLUMNS.filter((c) => c.header !== 'EPOCH' && c.header !== 'ERROR'),
  { header: 'SESSION', get: (r) => r.session_id ?? r.existing_session_id },
  { header: 'ATTEMPT', get: (r) => r.attempt },
  { header: 'TURNS', get: (r) => r.turns },
  { header: 'NOTE', get: (r) => r.error?.message ?? r.stopped },
];

/** Refused before anything is sent: each reason, at most a few named. */
function refuse(refusals: Refusal[]): never {
  const shown = refusals.slice(0, 3).map((r) => r.reason);
  const more = refusals.length > 3 ? `; and ${refusals.length - 3} more` : '';
  throw new UsageError(`${shown.join('; ')}${more}; nothing was sent`);
}

/** Each original planned from its whole history (reads only). */
async function plan(c: ApiClient, originals: Session[], o: RerunOptions): Promise<RerunPlan[]> {
  const plans: Array<RerunPlan | Refusal> = new Array(originals.length);
  await inParallel(originals, READS_IN_FLIGHT, async (s, i) => void (plans[i] = planRerun(s, await wholeHistory(c, String(s.id)), o)));
  const refusals = plans.filter(isRefusal);
  if (refusals.length) refuse(refusals);
  return plans as RerunPlan[];
}

export async function runRerun(ctx: Ctx, o: RerunCommandOptions): Promise<void> {
  const c = await ctx.api();
  const originals = await selectFleet(ctx, c, o.pick);
  if (!originals.length) return void (await ctx.msg('nothing matched'));
  // The default bound gives way to --yes; a --max given is a bound --yes does not lift.
  if (originals.length > o.max && (o.maxGiven || !o.bulk.yes) && !o.bulk.dryRun)
    throw new UsageError(
      `${originals.length} sessions selected, more than --max ${o.max}: ${o.maxGiven ? 'raise --max' : 'pass --yes to rerun them all (or raise --max)'}; nothing was sent`,
    );
  const plans = await plan(c, originals, o.rerun);
  const since = originals.map((s) => String(s.created_at ?? '')).sort()[0] || undefined;
  const found = await existingAttempts(c, new Set(plans.map((p) => p.root)), since);
  const byId = new Map(plans.map((p) => [p.original, p]));
  const { waitIdle } = await import('../../follow/wait-idle');
  const settle: Settle = async (id) => {
    try {
      await waitIdle(ctx, c, id, undefined);
      return undefined;
    } catch (e) {
      return { code: exitCodeFor(e), line: e instanceof Error ? e.message : String(e) };
    }
  };
  const made: string[] = [];
  const stopped: string[] = [];
  const action: BulkAction = {
    name: 'rerun',
    past: 'rerun',
    noun: 'session',
    columns: COLUMNS,
    preview: (t) => {
      const p = byId.get(t.id)!;
      const existing = existingFor(found, p);
      return {
        attempt: p.attempt,
        turns: `${p.turns.length}`,
        agent_version: p.body.agent_version ?? 'latest',
        ...(existing ? { existing_session_id: existing.id } : {}),
      };
    },
    apply: async (client, t) => {
      const p = byId.get(t.id)!;
      const done = await rerunOne(client, p, existingFor(found, p), settle);
      made.push(done.session_id);
      if (done.stopped) stopped.push(`rerun of ${p.original} (session ${done.session_id}) stopped at turn ${done.turns}: ${done.stopped}`);
      return { unchanged: !done.created && done.sent === 0, extra: { ...done } };
    },
  };
  try {
    await runBulk(ctx, { targets: plans.map((p) => ({ id: p.original })), action, options: o.bulk });
  } finally {
    for (const line of stopped) await ctx.msg(line);
  }
  if (!o.wait || o.bulk.dryRun) return;
  const { runWaitMany } = await import('./wait-many');
  await runWaitMany(ctx, made, { timeoutMs: o.timeoutMs, failFast: false, print: false });
}

export function addRerun(group: Command, kit: Kit): void {
  const cmd = group
    .command('rerun')
    .argument('[sessions...]', 'session IDs, or - to read them from standard input')
    .description(
      "Run sessions again: a new session each (same agent, environment, vaults, resources, title, metadata + rerun_of, attempt) replaying the original's user messages turn by turn",
    );
  addFlags(pickSessions(cmd), SESSION_RERUN_FLAGS);
  examples(cmd, [
    'svc sessions rerun SESSION_ID --wait',
    'svc sessions rerun --status failed --error-type engine_overloaded --newer-than 2h --dry-run',
    'svc sessions rerun --status failed --error-type engine_overloaded --newer-than 2h --yes --wait',
    'svc sessions list -l rerun_of=SESSION_ID   # every attempt of an original',
  ]);
  cmd.action(kit.verb(parseRerun, runRerun));
}
