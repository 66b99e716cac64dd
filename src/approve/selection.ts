/**
 * The one place `svc approve` selects sessions through the selection API (src/selection/selectors.ts): the flags
 * parsed, the fleet listed, and the strict test an answer is checked against. When the selection engine changes,
 * this file is what follows it.
 */
import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import { agentIdOf, matcher, parseSelectors, requiresAction, selectSessions, type SelectorFlags, type SessionSelectors } from '../selection/selectors';

export type { SessionSelectors, SelectorFlags };

/** The selector flags of `svc approve` and `svc approve serve`, checked before anything is sent (exit 2). */
export const approveSelectors = (flags: SelectorFlags): SessionSelectors => parseSelectors(flags);

/**
 * What an answer is checked against, on the session as read just before it: the selectors that say whose a session
 * is (its agent and its metadata). The state selectors (--status, --idle-for) are left out: a session waiting on a
 * confirmation has moved on from the state it was selected in, and is still the same session.
 */
export async function ownsTest(client: ApiClient, sel: SessionSelectors): Promise<(s: Obj) => boolean> {
  return matcher({ agent: sel.agent, labels: sel.labels }, await agentIdOf(client, sel));
}

/** The selected sessions that wait on a human now, page by page. */
export async function* waitingSessions(client: ApiClient, sel: SessionSelectors, now: number): AsyncGenerator<Obj> {
  for await (const s of selectSessions(client, sel, now, { all: true, pageSize: 1000 })) if (requiresAction(s)) yield s;
}
