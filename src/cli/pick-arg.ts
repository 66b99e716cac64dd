import type { Command } from 'commander';
import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import type { Flags } from './action';

/** Where a picker finds the recent resources a missing ID argument can be picked from. */
export interface PickSource {
  noun: string;
  /** The most recent ones, in the service's order (newest first). */
  recent: (c: ApiClient, limit: number) => AsyncIterable<Obj> | Promise<AsyncIterable<Obj>>;
  /** The status cell of a row (sessions: their derived state); default: the object's `status`. */
  status?: (o: Obj) => string;
}

/** The resource a list API serves, as a pick source. */
export function listSource(
  noun: string,
  api: { list: (c: ApiClient, q: Record<string, never>, lo: { limit: number; pageSize: number }) => AsyncIterable<Obj> },
  status?: (o: Obj) => string,
): PickSource {
  return { noun, recent: (c, limit) => api.list(c, {}, { limit, pageSize: limit }), status };
}

interface Pickable {
  source: PickSource;
  index: number;
  variadic: boolean;
  /** Whether nothing stands in for the argument (an optional one may be replaced by selectors). */
  missing: (flags: Flags) => boolean;
  /** The error for a missing argument when no picker can open (commander's own, for a required one). */
  refuse?: () => never;
}

const PICKABLE = new WeakMap<Command, Pickable>();

/**
 * Declares a verb's ID argument (the first, unless `index`) as one of `source`'s resources: when it is missing on a
 * terminal with input allowed, the verb offers a picker of recent ones instead of failing. Commander's check for a
 * required argument is deferred to the verb, which makes it when no picker can open (the same message, exit 2).
 */
export function pickable(cmd: Command, source: PickSource, o: { index?: number; missing?: (flags: Flags) => boolean } = {}): Command {
  const index = o.index ?? 0;
  const arg = cmd.registeredArguments[index];
  // Commander's own check (not in its typings): `error: missing required argument 'NAME'`, exit 2 here.
  const checked = cmd as Command & { missingArgument(name: string): never };
  const refuse = arg.required ? checked.missingArgument.bind(cmd, arg.name()) : undefined;
  if (refuse) {
    const original = checked.missingArgument.bind(cmd);
    checked.missingArgument = (name: string) => (name === arg.name() ? (undefined as never) : original(name));
  }
  PICKABLE.set(cmd, { source, index, variadic: arg.variadic, missing: o.missing ?? (() => true), refuse });
  return cmd;
}

/** The pickable argument of `cmd` when the command line leaves it out, else undefined. */
export function missingPick(cmd: Command, args: unknown[], flags: Flags): Pickable | undefined {
  const p = PICKABLE.get(cmd);
  if (!p) return undefined;
  const v = args[p.index];
  const absent = v === undefined || (Array.isArray(v) && v.length === 0);
  return absent && p.missing(flags) ? p : undefined;
}

export type { Pickable };
