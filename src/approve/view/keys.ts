/** The queue's keys as named commands in one table; the footer and the help are drawn from it (only what applies now). */
import type { KeyPress } from '../../live/keys';
import { selectedItem, type QueueState } from '../queue';

export type QueueCommand =
  'down' | 'up' | 'scrollDown' | 'scrollUp' | 'allow' | 'deny' | 'skip' | 'open' | 'help' | 'closeHelp' | 'send' | 'cancel' | 'backspace' | 'quit' | 'abort';

export type Press = KeyPress & { upArrow?: boolean; downArrow?: boolean; pageUp?: boolean; pageDown?: boolean };

export interface QueueKey {
  command: QueueCommand;
  key: string;
  help: string;
  matches: (input: string, k: Press) => boolean;
  when: (s: QueueState) => boolean;
  hidden?: boolean;
}

const letter = (ch: string) => (input: string, k: Press) => input === ch && !k.ctrl && !k.meta;
const browsing = (s: QueueState) => !s.denying && !s.help;
const answerable = (s: QueueState) => {
  const item = selectedItem(s);
  return browsing(s) && !s.readonly && item !== undefined && s.busy[item.key] === undefined;
};
const some = (s: QueueState) => browsing(s) && selectedItem(s) !== undefined;

export const QUEUE_KEYS: readonly QueueKey[] = [
  { command: 'down', key: 'j/↓', help: 'next', matches: (i, k) => letter('j')(i, k) || Boolean(k.downArrow), when: browsing, hidden: true },
  { command: 'up', key: 'k/↑', help: 'previous', matches: (i, k) => letter('k')(i, k) || Boolean(k.upArrow), when: browsing, hidden: true },
  { command: 'scrollDown', key: 'PgDn', help: 'scroll the input down', matches: (_i, k) => Boolean(k.pageDown), when: some, hidden: true },
  { command: 'scrollUp', key: 'PgUp', help: 'scroll the input up', matches: (_i, k) => Boolean(k.pageUp), when: some, hidden: true },
  { command: 'allow', key: 'y', help: 'allow', matches: letter('y'), when: answerable },
  { command: 'deny', key: 'n', help: 'deny (a message to the agent, optional)', matches: letter('n'), when: answerable },
  { command: 'skip', key: 's', help: 'skip', matches: letter('s'), when: some },
  { command: 'open', key: 'Enter', help: 'live view', matches: (_i, k) => Boolean(k.return), when: some },
  { command: 'send', key: 'Enter', help: 'send the deny', matches: (_i, k) => Boolean(k.return), when: (s) => Boolean(s.denying) },
  { command: 'cancel', key: 'Esc', help: 'cancel', matches: (_i, k) => Boolean(k.escape), when: (s) => Boolean(s.denying) },
  {
    command: 'backspace',
    key: '⌫',
    help: 'erase',
    matches: (_i, k) => Boolean(k.backspace || k.delete),
    when: (s) => Boolean(s.denying),
    hidden: true,
  },
  { command: 'help', key: '?', help: 'help', matches: letter('?'), when: browsing },
  { command: 'closeHelp', key: '?/Esc', help: 'close the help', matches: (i, k) => letter('?')(i, k) || Boolean(k.escape), when: (s) => s.help },
  { command: 'quit', key: 'q', help: 'quit', matches: letter('q'), when: (s) => !s.denying },
  { command: 'abort', key: 'Ctrl-C', help: 'quit', matches: (i, k) => Boolean(k.ctrl) && i === 'c', when: () => true, hidden: true },
];

export function commandFor(s: QueueState, input: string, k: Press): QueueCommand | undefined {
  return QUEUE_KEYS.find((b) => b.when(s) && b.matches(input, k))?.command;
}

/** The footer: the keys that apply now. */
export const footerKeys = (s: QueueState) => QUEUE_KEYS.filter((b) => b.when(s) && !b.hidden);
