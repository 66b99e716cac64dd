/** How the live view ends: what it returns to the command, and what its last frame says. */
import type { EndReason, TurnWatch } from '../follow/turn-end';

export interface LiveViewResult {
  /** `quit`: the user left (q; Ctrl-C rejects with InterruptedError); the others: how the turn ended (untilIdle). */
  reason: 'quit' | EndReason;
  /** With untilIdle: the text of the coordinator's last message of the turn, for `run` to print. */
  message?: string;
  /** With untilIdle: how the turn ended when not well, as the error the command exits with (11, 12), as without a terminal. */
  failure?: Error;
}

/** How the view ended, or an error: `left` when the user or the deadline ended it (the session is untouched). */
export type Outcome = { reason: LiveViewResult['reason'] } | { error: unknown; left?: boolean };

/** The default last footer when the user leaves. */
export const LEFT = 'left the view; the session keeps running';

/** What the command gets back: the reason, and with untilIdle what the turn said. */
export function resultOf(outcome: Outcome, watch: TurnWatch, untilIdle: boolean): LiveViewResult {
  if ('error' in outcome) throw outcome.error;
  const failure = untilIdle && outcome.reason !== 'quit' ? watch.failure() : undefined;
  return {
    reason: outcome.reason,
    ...(untilIdle && watch.message !== undefined ? { message: watch.message } : {}),
    ...(failure ? { failure } : {}),
  };
}

/** The last frame's footer: how the view ended, instead of keys that no longer work. */
export function endNote(o: Outcome | undefined, leaveNote = LEFT): string {
  if (!o || 'error' in o) return o?.left ? leaveNote : 'left the view';
  switch (o.reason) {
    case 'quit':
      return leaveNote;
    case 'idle':
      return 'the turn ended; the session is idle';
    case 'error':
      return 'the turn ended in session.error';
    case 'interrupted':
      return 'the session was interrupted';
    case 'terminated':
      return 'the session was terminated';
    case 'archived':
      return 'the session was archived';
  }
}

/** A promise and the function that settles it. */
export function settable<T>(): [Promise<T>, (value: T) => void] {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return [promise, settle];
}
