import type { Crud } from '../../api/resources';
import type { Column } from '../../output/table';

/** One resource as the generic verbs see it: its API functions (whose manifest entry names it) and its table columns. */
export interface ResourceSpec {
  group: string;
  noun: string;
  api: Crud;
  columns: Column[];
}

/** The spec of a resource of the manifest. */
export function resourceSpec(api: Crud, columns: Column[]): ResourceSpec {
  return { group: api.entry.group, noun: api.entry.noun, api, columns };
}

export function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** The first `--long` name of an option's flags (`--agent, --agent-id <id>` → `--agent`): the one users are shown. */
export function flagName(flags: string): string {
  return flags.split(/[\s,|]+/).find((f) => f.startsWith('--')) ?? flags;
}
