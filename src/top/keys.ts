/** The board's keys as named commands in one table; the footer and the help are drawn from it (only what applies now). */
import type { KeyPress } from '../live/keys';
import type { SessionRow } from './rows';
import { selectedRow, sortName, targets, VIEWS, type BoardState } from './state';

export type { KeyPress } from '../live/keys';

export type Command =
  | 'down'
  | 'up'
  | 'pageDown'
  | 'pageUp'
  | 'first'
  | 'last'
  | 'view'
  | 'filter'
  | 'filterDone'
  | 'filterClear'
  | 'filterBackspace'
  | 'sort'
  | 'mark'
  | 'interrupt'
  | 'continue'
  | 'archive'
  | 'yes'
  | 'no'
  | 'allow'
  | 'deny'
  | 'open'
  | 'figures'
  | 'help'
  | 'closeHelp'
  | 'quit'
  | 'abort';

export interface KeyBinding {
  command: Command;
  /** How the footer names the key. */
  key: string;
  help: (s: BoardState) => string;
  matches: (input: string, k: KeyPress & { upArrow?: boolean; downArrow?: boolean; pageUp?: boolean; pageDown?: boolean }) => boolean;
  when: (s: BoardState) => boolean;
  /** Left out of the footer (still in the help): moves and the keys that only edit. */
  hidden?: (s: BoardState) => boolean;
}

const letter = (ch: string) => (input: string, k: KeyPress) => input === ch && !k.ctrl && !k.meta;
/** The board itself has the keys: no filter being typed, no question asked, no help shown. */
const browsing = (s: BoardState) => !s.filtering && !s.asking && !s.help;
const onSessions = (s: BoardState) => browsing(s) && s.view === 'sessions';
const writable = (s: BoardState) => onSessions(s) && !s.readonly;
const some = (s: BoardState, test: (r: SessionRow) => boolean) => targets(s).some((r) => !s.busy[r.id] && test(r));
const interruptible = (r: SessionRow) =>
  !r.archived && !r.interrupted && !r.stopping && (r.status === 'running' || r.status === 'rescheduling' || r.continuePending);
const continuable = (r: SessionRow) => !r.archived && r.interrupted && !r.continuePending;
const awaiting = (s: BoardState) => {
  const r = selectedRow(s) as SessionRow | undefined;
  return r !== undefined && !s.busy[r.id] && r.requiresAction && r.awaited.length > 0;
};
const what = (s: BoardState) => {
  const n = targets(s).length;
  return s.marks.size ? ` ${n} marked` : '';
};

export const KEYS: readonly KeyBinding[] = [
  { command: 'down', key: 'j/↓', help: () => 'down', matches: (i, k) => letter('j')(i, k) || Boolean(k.downArrow), when: browsing, hidden: () => true },
  { command: 'up', key: 'k/↑', help: () => 'up', matches: (i, k) => letter('k')(i, k) || Boolean(k.upArrow), when: browsing, hidden: () => true },
  { command: 'pageDown', key: 'PgDn', help: () => 'page down', matches: (_i, k) => Boolean(k.pageDown), when: browsing, hidden: () => true },
  { command: 'pageUp', key: 'PgUp', help: () => 'page up', matches: (_i, k) => Boolean(k.pageUp), when: browsing, hidden: () => true },
  { command: 'first', key: 'g', help: () => 'first row', matches: letter('g'), when: browsing, hidden: () => true },
  { command: 'last', key: 'G', help: () => 'last row', matches: letter('G'), when: browsing, hidden: () => true },
  {
    command: 'view',
    key: '1 2 3',
    help: (s) => VIEWS.filter((v) => v !== s.view).join(', '),
    matches: (i, k) => ['1', '2', '3'].includes(i) && !k.ctrl && !k.meta,
    when: browsing,
  },
  { command: 'filter', key: '/', help: () => 'filter', matches: letter('/'), when: browsing },
  {
    command: 'filterClear',
    key: 'Esc',
    help: () => 'clear filter',
    matches: (_i, k) => Boolean(k.escape),
    when: (s) => s.filtering || (browsing(s) && s.filter[s.view] !== ''),
  },
  { command: 'filterDone', key: 'Enter', help: () => 'keep filter', matches: (_i, k) => Boolean(k.return), when: (s) => s.filtering },
  {
    command: 'filterBackspace',
    key: '⌫',
    help: () => 'delete',
    matches: (_i, k) => Boolean(k.backspace || k.delete),
    when: (s) => s.filtering,
    hidden: () => true,
  },
  { command: 'sort', key: 's', help: (s) => `sort: ${sortName(s)}`, matches: letter('s'), when: browsing },
  { command: 'mark', key: 'space', help: () => 'mark', matches: letter(' '), when: onSessions },
  { command: 'interrupt', key: 'i', help: (s) => `interrupt${what(s)}`, matches: letter('i'), when: (s) => writable(s) && some(s, interruptible) },
  { command: 'continue', key: 'c', help: (s) => `continue${what(s)}`, matches: letter('c'), when: (s) => writable(s) && some(s, continuable) },
  { command: 'archive', key: 'a', help: (s) => `archive${what(s)}`, matches: letter('a'), when: (s) => writable(s) && some(s, (r) => !r.archived) },
  { command: 'allow', key: 'y', help: () => 'allow', matches: letter('y'), when: (s) => writable(s) && awaiting(s) },
  { command: 'deny', key: 'n', help: () => 'deny', matches: letter('n'), when: (s) => writable(s) && awaiting(s) },
  { command: 'yes', key: 'y', help: (s) => `archive ${s.asking?.ids.length}`, matches: letter('y'), when: (s) => Boolean(s.asking) },
  { command: 'no', key: 'n/Esc', help: () => 'cancel', matches: (i, k) => letter('n')(i, k) || Boolean(k.escape), when: (s) => Boolean(s.asking) },
  { command: 'open', key: 'Enter', help: () => 'open', matches: (_i, k) => Boolean(k.return), when: (s) => onSessions(s) && selectedRow(s) !== undefined },
  {
    command: 'figures',
    key: 'f',
    help: (s) => (s.figuresOpen ? 'table' : 'figures'),
    matches: letter('f'),
    when: (s) => onSessions(s) && (s.figuresOpen || selectedRow(s) !== undefined),
  },
  { command: 'help', key: '?', help: () => 'help', matches: letter('?'), when: browsing },
  { command: 'closeHelp', key: '?/Esc', help: () => 'close help', matches: (i, k) => letter('?')(i, k) || Boolean(k.escape), when: (s) => s.help },
  { command: 'quit', key: 'q', help: () => 'quit', matches: letter('q'), when: (s) => !s.filtering },
  // Ctrl-C leaves too, as an interruption: exit 130, where `q` exits 0.
  {
    command: 'abort',
    key: 'Ctrl-C',
    help: () => 'quit (exit 130)',
    matches: (i, k) => i === 'c' && Boolean(k.ctrl),
    when: () => true,
    hidden: (s) => !s.filtering,
  },
];

/** The command a key press means now, if any. */
export function commandFor(input: string, k: Parameters<KeyBinding['matches']>[1], s: BoardState): Command | undefined {
  return KEYS.find((b) => b.when(s) && b.matches(input, k))?.command;
}

/** The footer: the keys that apply now, with what they do. */
export function footerKeys(s: BoardState): Array<{ key: string; help: string }> {
  return KEYS.filter((b) => b.when(s) && !b.hidden?.(s)).map((b) => ({ key: b.key, help: b.help(s) }));
}

/** The help screen: every key of the board, once, with what it does in general. */
export const HELP: ReadonlyArray<{ key: string; help: string }> = [
  { key: 'j k ↑ ↓', help: 'move; PgUp PgDn a page; g G first and last row' },
  { key: '1 2 3', help: 'sessions, work rows (--environment), triggers' },
  { key: '/', help: 'filter the rows by text (Enter keeps it, Esc clears it)' },
  { key: 's', help: 'cycle the sort order' },
  { key: 'space', help: 'mark a session; i, c and a act on the marked sessions, else on the selected one' },
  { key: 'i c', help: 'interrupt, continue (not with --readonly)' },
  { key: 'a', help: 'archive, after a y (a running session is interrupted first)' },
  { key: 'y n', help: "allow or deny the selected session's oldest awaited tool confirmation" },
  { key: 'Enter', help: "open the session's live view; its q comes back here" },
  { key: 'f', help: "the selected session's figures (svc sessions stats) from the events the board streamed" },
  { key: '?', help: 'this help' },
  { key: 'q', help: 'quit (Ctrl-C: exit 130)' },
];
