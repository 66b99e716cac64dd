/** The live view's keys as named commands in one table; the footer is derived from it (only the keys that apply now). */
import { filterName, nextConfirmation, type ViewState } from './reducer';

export type Command =
  | 'interrupt'
  | 'continue'
  | 'compose'
  | 'send'
  | 'toggleMode'
  | 'cancelCompose'
  | 'backspace'
  | 'allow'
  | 'deny'
  | 'cycleThread'
  | 'toggleDeltas'
  | 'quit'
  | 'abort';

/** The part of Ink's `Key` the table reads. */
export interface KeyPress {
  ctrl?: boolean;
  meta?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
}

export interface KeyBinding {
  command: Command;
  /** How the footer names the key. */
  key: string;
  /** What the footer says it does, in the current state. */
  help: (s: ViewState) => string;
  matches: (input: string, k: KeyPress) => boolean;
  /** When the key applies. */
  when: (s: ViewState) => boolean;
  /** Left out of the footer: obvious editing keys, and Ctrl-C while `q` is shown. */
  hidden?: (s: ViewState) => boolean;
}

const letter = (ch: string) => (input: string, k: KeyPress) => input === ch && !k.ctrl && !k.meta;
const viewing = (s: ViewState) => !s.compose;
const composing = (s: ViewState) => Boolean(s.compose);
/** Keys that act on the session (interrupt, continue, message, answers) apply only to an open session, never read-only. */
const writable = (s: ViewState) => s.status !== 'terminated' && !s.readonly;
/**
 * The spec accepts an interrupt on an idle session too, but there it stops nothing: `i` is offered
 * only while a turn runs or one is about to start (queued input, a continue in progress).
 */
const interruptible = (s: ViewState) =>
  writable(s) && !s.interrupted && !s.stopping && (s.status === 'running' || s.status === 'rescheduling' || s.continuePending || (s.pendingInputs ?? 0) > 0);

export const KEYS: readonly KeyBinding[] = [
  {
    command: 'interrupt',
    key: 'i',
    help: () => 'interrupt',
    matches: letter('i'),
    when: (s) => viewing(s) && interruptible(s),
  },
  {
    command: 'continue',
    key: 'c',
    help: () => 'continue',
    matches: letter('c'),
    when: (s) => viewing(s) && writable(s) && s.interrupted && !s.stopping && !s.continuePending,
  },
  { command: 'compose', key: 'm', help: () => 'message', matches: letter('m'), when: (s) => viewing(s) && writable(s) },
  { command: 'send', key: 'Enter', help: (s) => `send (${s.compose?.mode})`, matches: (_i, k) => Boolean(k.return), when: composing },
  {
    command: 'toggleMode',
    key: 'Tab',
    help: (s) => (s.compose?.mode === 'steer' ? 'next_turn' : 'steer'),
    matches: (_i, k) => Boolean(k.tab),
    when: composing,
  },
  { command: 'cancelCompose', key: 'Esc', help: () => 'cancel', matches: (_i, k) => Boolean(k.escape), when: composing },
  { command: 'backspace', key: '⌫', help: () => 'delete', matches: (_i, k) => Boolean(k.backspace || k.delete), when: composing, hidden: () => true },
  {
    command: 'allow',
    key: 'y',
    help: (s) => `allow ${nextConfirmation(s)?.name}`,
    matches: letter('y'),
    when: (s) => viewing(s) && writable(s) && nextConfirmation(s) !== undefined,
  },
  {
    command: 'deny',
    key: 'n',
    help: (s) => `deny ${nextConfirmation(s)?.name}`,
    matches: letter('n'),
    when: (s) => viewing(s) && writable(s) && nextConfirmation(s) !== undefined,
  },
  {
    command: 'cycleThread',
    key: 't',
    help: (s) => `thread: ${filterName(s)}`,
    matches: letter('t'),
    when: (s) => viewing(s) && s.threads.length > 0,
  },
  { command: 'toggleDeltas', key: 'd', help: (s) => (s.showDeltas ? 'hide deltas' : 'show deltas'), matches: letter('d'), when: viewing },
  { command: 'quit', key: 'q', help: () => 'quit', matches: letter('q'), when: viewing },
  // Ctrl-C leaves too, as an interruption: exit 130 (docs/behaviour.md), where `q` exits 0.
  { command: 'abort', key: 'Ctrl-C', help: () => 'quit', matches: (input, k) => input === 'c' && Boolean(k.ctrl), when: () => true, hidden: viewing },
];

/** The command a key press means now, if any. */
export function commandFor(input: string, k: KeyPress, s: ViewState): Command | undefined {
  return KEYS.find((b) => b.when(s) && b.matches(input, k))?.command;
}

/** The footer: the keys that apply now, with what they do. */
export function footerKeys(s: ViewState): Array<{ key: string; help: string }> {
  return KEYS.filter((b) => b.when(s) && !b.hidden?.(s)).map((b) => ({ key: b.key, help: b.help(s) }));
}
