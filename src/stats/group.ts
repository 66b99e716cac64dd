/** `svc stats --by`: which group a session's figures join, and the sums per group. */
import type { Session } from '../wire/resources';
import { UsageError } from '../runtime/errors';
import { sessionState } from '../session/state';
import { groupFigures, type GroupFigures } from './report';
import { addTally, emptyTally, type Tally } from './tally';

export type GroupBy = { kind: 'all' } | { kind: 'agent' } | { kind: 'day' } | { kind: 'status' } | { kind: 'label'; key: string };

export const BY_VALUES = 'agent, day, status or label:KEY';

export function parseBy(v: string | undefined): GroupBy {
  if (v === undefined) return { kind: 'all' };
  if (v === 'agent' || v === 'day' || v === 'status') return { kind: v };
  const m = /^label:(.+)$/.exec(v);
  if (m && m[1].trim() !== '') return { kind: 'label', key: m[1] };
  throw new UsageError(`--by takes ${BY_VALUES} (got "${v}")`);
}

const NONE = '(none)';

/** The group of a session: its agent ID, its creation day (UTC), its derived state, or a metadata value. */
export function groupOf(by: GroupBy, s: Session): string {
  switch (by.kind) {
    case 'all':
      return 'all';
    case 'agent':
      return typeof s.agent_id === 'string' ? s.agent_id : NONE;
    case 'day':
      return typeof s.created_at === 'string' ? s.created_at.slice(0, 10) : NONE;
    case 'status':
      return sessionState(s).label;
    case 'label': {
      const v = s.metadata && Object.hasOwn(s.metadata, by.key) ? s.metadata[by.key] : undefined;
      return typeof v === 'string' ? v : NONE;
    }
  }
}

/** Sums per group, in constant memory per group. */
export class Groups {
  private readonly groups = new Map<string, { sessions: number; failed: number; tally: Tally }>();

  constructor(private readonly by: GroupBy) {}

  add(s: Session, t: Tally): void {
    const key = groupOf(this.by, s);
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { sessions: 0, failed: 0, tally: emptyTally() }));
    g.sessions++;
    if (sessionState(s).label === 'failed') g.failed++;
    addTally(g.tally, t);
  }

  get keys(): string[] {
    return [...this.groups.keys()];
  }

  /** The groups in key order (days oldest first), each named by `name` (an agent's name for its ID). */
  figures(name: (key: string) => string = (k) => k): GroupFigures[] {
    return [...this.groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, g]) => groupFigures(name(key), g.sessions, g.failed, g.tally));
  }
}
