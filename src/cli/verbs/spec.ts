import type { Crud, Obj } from '../../api/resources';
import { cellText, type Column } from '../../output/table';
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
  /** What a table shows of one object, where it adds to the service's members (a session's derived state). */
  tableRecord?: (o: Obj) => Obj;
}

/** The spec of a resource of the manifest. */
export function resourceSpec(api: Crud, columns: Column[], namedColumns?: NamedColumns): ResourceSpec {
  return { group: api.entry.group, noun: api.entry.noun, api, columns, ...(namedColumns ? { namedColumns } : {}) };
}

/** Where a picker finds recent ones of this resource, for a verb whose ID is missing on a terminal; its status as the table shows it. */
export function pickSource(spec: ResourceSpec): PickSource {
  const status = spec.columns.find((c) => c.header === 'STATUS');
  return listSource(spec.noun, spec.api, status && ((o) => cellText(status.get(o))));
}

export function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** The first `--long` name of an option's flags (`--agent, --agent-id <id>` → `--agent`): the one users are shown. */
export function flagName(flags: string): string {
  return flags.split(/[\s,|]+/).find((f) => f.startsWith('--')) ?? flags;
}
