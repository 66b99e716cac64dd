import type { Crud } from '../../api/resources';
import type { Column } from '../../output/table';
import { listSource, type PickSource } from '../pick-arg';
import type { NamedColumns } from './agent-names';

/** One resource as the generic verbs see it: its API functions (whose manifest entry names it) and its table columns. */
export interface ResourceSpec {
  group: string;
  noun: string;
  api: Crud;
  columns: Column[];
  /** A list's columns when its rows name an agent: a table shows the agent's name beside its ID. */
  namedColumns?: NamedColumns;
}

/** The spec of a resource of the manifest. */
export function resourceSpec(api: Crud, columns: Column[], namedColumns?: NamedColumns): ResourceSpec {
  return { group: api.entry.group, noun: api.entry.noun, api, columns, ...(namedColumns ? { namedColumns } : {}) };
}

/** Where a picker finds recent ones of this resource, for a verb whose ID is missing on a terminal. */
export function pickSource(spec: ResourceSpec): PickSource {
  return listSource(spec.noun, spec.api);
}

export function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** The first `--long` name of an option's flags (`--agent, --agent-id <id>` → `--agent`): the one users are shown. */
export function flagName(flags: string): string {
  return flags.split(/[\s,|]+/).find((f) => f.startsWith('--')) ?? flags;
}
