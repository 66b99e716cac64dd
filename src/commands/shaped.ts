import type { Command } from 'commander';
import type { Obj } from '../api/resources';
import type { ApiClient } from '../api/client';
import type { Ctx } from '../context';
import { UsageError } from '../errors';
import { examples, type Kit, type Opts } from './kit';
import { bodyFrom, idempotencyKey, type BodyFlag, type ResourceSpec } from './resource';

type Doc = Record<string, unknown>;

/**
 * create / update whose body is more than one flag per field: flags that build a nested member
 * (`config`, `schedule`, `initial_events`), client-side enum checks, an update sent as several PATCHes.
 */
export interface ShapedOptions {
  flags?: BodyFlag[];
  /** Adds the composite flags. */
  addFlags?: (cmd: Command) => Command;
  /** Merges the composite flags into the body read from --data and the simple flags. */
  shape?: (body: Doc, opts: Opts) => Doc;
  check?: (body: Doc) => void;
  required?: string[];
  examples: string[];
}

async function shapedBody(ctx: Ctx, opts: Opts, o: ShapedOptions): Promise<Doc> {
  const body = await bodyFrom(ctx, opts, o.flags ?? []);
  const shaped = o.shape ? o.shape(body, opts) : body;
  o.check?.(shaped);
  return shaped;
}

function withBodyFlags(cmd: Command, o: ShapedOptions): Command {
  cmd.option('--data <json|@file|@->', 'request body as JSON or YAML, inline, from a file, or - for stdin');
  for (const f of o.flags ?? []) cmd.option(f.flags, f.description);
  o.addFlags?.(cmd);
  return examples(cmd, o.examples);
}

export function addShapedCreate(group: Command, kit: Kit, spec: ResourceSpec, o: ShapedOptions): Command {
  const cmd = withBodyFlags(group.command('create').description(`Create ${/^[aeiou]/.test(spec.noun) ? 'an' : 'a'} ${spec.noun}`), o)
    .option('--idempotency-key <key>', 'Idempotency-Key to send (default: a fresh UUID)');
  return cmd.action(
    kit.action(async (ctx, _args, opts) => {
      const body = await shapedBody(ctx, opts, o);
      for (const r of o.required ?? []) if (body[r] === undefined) throw new UsageError(`${spec.noun} ${r} is required (a flag or --data)`);
      const key = idempotencyKey(opts);
      await ctx.out.item(await spec.api.create(await ctx.api(), body, key), spec.columns);
    }),
  );
}

/** `send` turns one update into its requests (default: one PATCH) and returns the final object. */
export function addShapedUpdate(group: Command, kit: Kit, spec: ResourceSpec, o: ShapedOptions, send?: (c: ApiClient, id: string, body: Doc) => Promise<Obj>): Command {
  const cmd = withBodyFlags(group.command('update').argument('<id>', `${spec.noun} ID`).description(`Update ${/^[aeiou]/.test(spec.noun) ? 'an' : 'a'} ${spec.noun} (PATCH: only the fields given change)`), o);
  return cmd.action(
    kit.action(async (ctx, [id], opts) => {
      const body = await shapedBody(ctx, opts, o);
      if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --data or a field flag');
      const c = await ctx.api();
      await ctx.out.item(send ? await send(c, id, body) : await spec.api.update(c, id, body), spec.columns);
    }),
  );
}
