/**
 * `--error-type T` as a client-side condition of the selection: a session matches when its last turn ended in a
 * `session.error` of type T. Only sessions whose stop can come from an error (`mayHaveErrorType`) cost a history read.
 */
import type { Session } from '../wire/resources';
import { inParallel } from '../parallel';
import { lastTurnError, mayHaveErrorType } from './last-turn';
import type { RecentHistory } from './history';

/** History reads in flight at once while filtering. */
export const READS_IN_FLIGHT = 8;

export async function filterByErrorType(list: Session[], errorType: string, history: RecentHistory): Promise<Session[]> {
  const keep: boolean[] = new Array(list.length).fill(false);
  await inParallel(list, READS_IN_FLIGHT, async (s, i) => {
    if (!mayHaveErrorType(s)) return;
    keep[i] = lastTurnError(await history.of(String(s.id)))?.type === errorType;
  });
  return list.filter((_, i) => keep[i]);
}
