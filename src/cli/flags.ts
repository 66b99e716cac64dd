import { UsageError } from '../runtime/errors';
import type { Flags } from './action';

/** Commander collector for a repeatable flag (`--file A --file B`). */
export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** At most one of these flags (given as `--name` → opts key); with `required`, exactly one. Exit 2 otherwise. */
export function oneOf(opts: Flags, flags: Record<string, string>, required = false): string | undefined {
  const given = Object.entries(flags).filter(([, key]) => opts[key] !== undefined && opts[key] !== false);
  const names = Object.keys(flags).join(' or ');
  if (given.length > 1) throw new UsageError(`${given.map(([f]) => f).join(' and ')} cannot be used together`);
  if (required && given.length === 0) throw new UsageError(`give ${names}`);
  return given[0]?.[0];
}
