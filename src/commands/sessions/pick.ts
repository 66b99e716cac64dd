import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import { listSource, pickable } from '../../cli/pick-arg';
import { hasSelectors, parseSelectors } from '../../selection/selectors';
import { sessionStateText, type SessionStateInput } from '../../session/state';

/** The recent sessions a picker offers when a verb's session ID is missing on a terminal. */
export const RECENT_SESSIONS = listSource('session', sessions, (s) => sessionStateText(s as SessionStateInput));

/** A verb of one session (`tail`, `events`, …): its missing SESSION is picked on a terminal. */
export const pickSession = (cmd: Command): Command => pickable(cmd, RECENT_SESSIONS);

/** A verb that acts on many sessions: no ID and no selector picks one on a terminal (selectors alone choose many). */
export const pickSessions = (cmd: Command): Command => pickable(cmd, RECENT_SESSIONS, { missing: (flags) => !hasSelectors(parseSelectors(flags)) });
