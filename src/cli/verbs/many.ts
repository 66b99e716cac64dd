import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { DEFAULT_CONCURRENCY, runBulk, type BulkAction } from '../../bulk/execute';
import { byIdOrName } from '../../selection/names';
import { selectedTargets } from '../../selection/targets';
import { hasSelectors, parseResourceSelectors, readIds, type SessionSelectors } from '../../selection/selectors';
import type { Flags } from '../action';
import { addFlags, flagTable } from '../flags';
import { resourceSelectorFlags } from './selection-flags';
import { pickable } from '../pick-arg';
import { article, pickSource, type ResourceSpec } from './spec';

/** The bulk flags of a resource's archive and delete (docs/behaviour.md "Acting on many"). */
export const MANY_FLAGS = flagTable({
  yes: { flags: '-y, --yes', description: 'act on more than one without asking' },
  dryRun: { flags: '--dry-run', description: 'print what would be acted on and send nothing' },
  concurrency: { flags: '--concurrency <n>', description: `requests in flight at once (default ${DEFAULT_CONCURRENCY})` },
  failFast: { flags: '--fail-fast', description: 'stop issuing writes at the first failure' },
  ignoreNotFound: { flags: '--ignore-not-found', description: 'count one that does not exist as done' },
});

/** `svc GROUP archive|delete ID… | -` with the bulk flags, parsed before any request. */
export interface ManyVerbOptions {
  resource: ResourceSpec;
  ids?: string[];
  stdin: boolean;
  yes: boolean;
  dryRun: boolean;
  concurrency: number;
  failFast: boolean;
  ignoreNotFound: boolean;
  /** `-l` and the time selectors, where the resource's manifest row says it takes them. */
  selectors?: SessionSelectors;
}

/** Nothing chose the targets: no selector given (with no ID either, a picker may offer one on a terminal). */
export const noneSelected = (flags: Flags): boolean => !hasSelectors(parseResourceSelectors(flags));

export function parseMany(resource: ResourceSpec, args: string[], flags: Flags): ManyVerbOptions {
  const stdin = args.includes('-');
  if (stdin && args.length > 1) throw new UsageError('give IDs as arguments or - for standard input, not both');
  const selectors = parseResourceSelectors(flags);
  const selecting = hasSelectors(selectors);
  if (selecting && args.length) throw new UsageError(`give ${resource.noun} IDs or selectors (-l, --older-than, --newer-than), not both`);
  if (!args.length && !selecting) throw new UsageError(`give ${resource.noun} IDs, or - to read them from standard input`);
  return {
    ...(selecting ? { selectors } : {}),
    resource,
    ids: stdin ? undefined : args,
    stdin,
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseCount(String(flags.concurrency), '--concurrency', 1, 64),
    failFast: Boolean(flags.failFast),
    ignoreNotFound: Boolean(flags.ignoreNotFound),
  };
}

/** One ID and no bulk flag: the verb's single-item behaviour (the object, as before). */
export function isSingleItem(o: ManyVerbOptions): boolean {
  return !o.selectors && !o.stdin && o.ids?.length === 1 && !o.dryRun && !o.failFast && !o.ignoreNotFound && !o.yes;
}

/**
 * `act` with the ID an argument names: a name works for resources with names (tried only when the ID is not found),
 * and `named` is told the ID the name stood for.
 */
export function withIdOf<T>(c: ApiClient, resource: ResourceSpec, ref: string, act: (id: string) => Promise<T>, named?: (id: string) => void): Promise<T> {
  return resource.api.entry.named ? byIdOrName(c, resource.api, resource.noun, ref, act, named) : act(ref);
}

export async function runMany(ctx: Ctx, o: ManyVerbOptions, action: BulkAction): Promise<void> {
  const ids = o.stdin ? await readIds(ctx.io.stdin, ctx.io.signal) : (o.ids ?? []);
  await runBulk(ctx, {
    targets: o.selectors ? await selectedTargets(ctx, o.resource.api, o.selectors) : [...new Set(ids)].map((id) => ({ id })),
    action,
    options: { yes: o.yes, dryRun: o.dryRun, concurrency: o.concurrency, failFast: o.failFast, ignoreNotFound: o.ignoreNotFound },
  });
}

/**
 * The `archive` or `delete` command of a resource: several IDs (or names), `-`, or where its manifest row says so the
 * resource selectors; a missing one is picked on a terminal.
 */
export function addManyCommand(group: Command, spec: ResourceSpec, name: 'archive' | 'delete'): Command {
  const selectors = spec.api.entry.selectors;
  const cmd = group
    .command(name)
    .argument(selectors ? '[ids...]' : '<ids...>', `${spec.noun} IDs${spec.api.entry.named ? ' or names' : ''}, or - to read them from standard input`)
    .description(`${name === 'archive' ? 'Archive' : 'Delete'} ${article(spec.noun)} (or many)`);
  pickable(cmd, pickSource(spec), { missing: noneSelected });
  return addFlags(cmd, selectors ? { ...MANY_FLAGS, ...resourceSelectorFlags(`${spec.noun}s`) } : MANY_FLAGS);
}
