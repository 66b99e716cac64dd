import type { Command } from 'commander';
import type { Query } from '../../api/client';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../action';
import { addFlags, flagTable, type FlagsOf } from '../flags';
import { pickSource, type ResourceSpec } from './spec';
import { pickable } from '../pick-arg';
import { withIdOf } from './many';

/** `svc GROUP get ID [--version N]`. */
export interface GetVerbOptions {
  resource: ResourceSpec;
  id: string;
  /** `--version`, where the resource has versions. */
  version?: string;
  /** Members a table shows first, in this order (the rest as the service sent them). */
  lead: string[];
}

/** The flag parseGet reads: `--version`, declared where the resource has versions (`versioned`). */
const GET_FLAGS = flagTable({ version: { flags: '--version <n>', description: 'read this version' } });

export function parseGet(resource: ResourceSpec, [id]: string[], flags: FlagsOf<typeof GET_FLAGS>, lead: string[] = []): GetVerbOptions {
  return { resource, id, version: flags.version, lead };
}

export async function runGet(ctx: Ctx, o: GetVerbOptions): Promise<void> {
  const c = await ctx.api();
  const api = o.resource.api;
  const q: Query = o.version !== undefined ? { version: o.version } : {};
  const obj = await withIdOf(c, o.resource, o.id, (id) => api.get(c, id, q));
  await ctx.out.item(ctx.format === 'table' ? leading(o.resource.tableRecord?.(obj) ?? obj, o.lead) : obj, o.resource.columns);
}

/** The object with these members first; json and yaml keep the service's order, only a table is rearranged. */
export function leading(obj: Obj, lead: string[]): Obj {
  if (!lead.length) return obj;
  const first = Object.fromEntries(lead.filter((k) => k in obj).map((k) => [k, obj[k]]));
  return { ...first, ...obj };
}

export function addGet(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[]; lead?: string[]; versioned?: boolean } = {}): Command {
  const cmd = pickable(group.command('get').argument('<id>', `${spec.noun} ID`).description(`Show one ${spec.noun}`), pickSource(spec));
  if (extra.versioned) addFlags(cmd, GET_FLAGS);
  examples(cmd, extra.examples ?? [`svc ${spec.group} get ID`, `svc ${spec.group} get ID -o json --jq .name`]);
  return cmd.action(kit.verb((args, flags) => parseGet(spec, args, flags, extra.lead), runGet));
}
