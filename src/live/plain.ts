/**
 * Accessible mode's live view: the same store and reducer as the Ink view, written as plain appended lines (no
 * alternate screen, no cursor moves, no redrawn header): each finished item once, each change of the session's
 * state, connection, notice or awaited confirmation once, in words. Keys are typed as a line: a letter and Enter.
 */
import type { Ctx } from '../runtime/context';
import { escapeLineControls } from '../output/controls';
import { formatItem, type Item } from './items';
import { transcriptLines } from './lines';
import type { MountedView } from './mount';
import { footerKeys } from './keys';
import { handleKey } from './input';
import { nextConfirmation, type ViewState } from './reducer';
import type { ActionSink } from './sink';
import { connectionText, statusText } from './status';
import type { LiveStore } from './store';

/** What the lines have said so far: a change is written when it differs from this. */
export interface Said {
  /** The last item written (its seq). */
  written: number;
  /** The thread filter the next items were received under. */
  filter: string;
  state?: string;
  connection?: string;
  notice?: string;
  /** The confirmation last asked about. */
  asked?: string;
  ended?: boolean;
}

export const nothingSaid = (s: ViewState): Said => ({ written: 0, filter: s.filter });

/** The lines a state adds to what was said, in order: items (status items as the state they leave), then the rest. */
export function plainLines(said: Said, s: ViewState): { lines: string[]; said: Said } {
  const next = { ...said };
  const sessionLine = (state: string) => `session ${escapeLineControls(s.sessionId)}: ${state}`;
  const stateLine = (state: string): string | undefined => {
    if (state === next.state) return undefined;
    next.state = state;
    return sessionLine(state);
  };
  const itemLine = (i: Item): string | undefined => {
    if (i.state === undefined) return formatItem(i);
    const state = stateLine(i.state);
    // A status item says no more than its state; an interrupt's line also names its epoch.
    return i.kind === 'status' ? state : [formatItem(i), state].filter(Boolean).join('\n');
  };
  // Quiet items carry a state only: they are given to `itemLine` unquieted, the rest as the transcript writes them.
  const items = s.finished.map((i) => (i.quiet && i.state !== undefined ? { ...i, quiet: false, kind: 'status' as const } : i));
  const lines = transcriptLines(items, said.written, said.filter, itemLine);
  next.written = s.finished.at(-1)?.seq ?? said.written;
  next.filter = s.filter;
  const connection = s.connection.kind === 'connecting' ? next.connection : connectionText(s.connection).text;
  if (connection !== next.connection) lines.push(`connection: ${(next.connection = connection)}`);
  // The state read at the start waits for the history before it: its lines tell the states in the order they came.
  if (s.status !== 'unknown' && (next.connection !== undefined || s.ended)) lines.push(stateLine(statusText(s)) ?? '');
  const notice = s.notice && escapeLineControls(s.notice.text);
  if (notice && notice !== next.notice) lines.push(s.notice?.level === 'error' ? `error: ${notice}` : notice);
  next.notice = notice;
  const c = s.readonly ? undefined : nextConfirmation(s);
  if (c && c.eventId !== next.asked)
    lines.push(`${sessionLine(`waiting for a confirmation of tool ${escapeLineControls(c.name)}`)}; type y to allow or n to deny, then Enter`);
  next.asked = c?.eventId ?? next.asked;
  if (s.ended && !next.ended) lines.push(escapeLineControls(s.ended));
  next.ended = Boolean(s.ended);
  return { lines: lines.filter(Boolean), said: next };
}

/** The keys that apply now, as the line `?` (and the first line) answers with. */
export function keysLine(s: ViewState): string {
  // Delta previews are never written here, so `d` has nothing to show.
  const keys = footerKeys(s).filter((k) => k.key.length === 1 && k.key !== 'd');
  return `keys (type one and Enter): ${keys.map((k) => `${k.key} ${k.help}`).join(', ')}${keys.some((k) => k.key === 'm') ? '; m TEXT sends TEXT' : ''}`;
}

/**
 * One typed line as keys of the key table: a letter, `m TEXT` (a message, sent at once), or `?` for the keys. A key
 * that does not apply now says so.
 */
export function typedLine(store: LiveStore, sink: ActionSink, line: string): string | undefined {
  const text = line.trim();
  if (!text) return undefined;
  if (text === '?') return keysLine(store.getState());
  const [key, message] = [text[0], text.slice(1).trim()];
  if (key === 'd') return `d does nothing here; ${keysLine(store.getState())}`;
  if (key === 'm' && !message) return 'type m, a space and the message on one line, then Enter';
  if (text.length > 1 && !(key === 'm' && /^m\s/.test(text))) return `not a key: ${escapeLineControls(text)}; ${keysLine(store.getState())}`;
  if (!handleKey(store, sink, key, {})) return `${key} does nothing now; ${keysLine(store.getState())}`;
  if (key === 'm') {
    store.dispatch({ type: 'compose.input', text: message });
    handleKey(store, sink, '', { return: true });
  }
  return undefined;
}

/**
 * Writes the store's frames to stdout as plain lines, and reads typed lines from a terminal's standard input (cooked:
 * the terminal echoes, nothing is redrawn). The same contract as mountView: the last lines are written on unmount.
 */
export async function mountPlainView(o: { ctx: Ctx; store: LiveStore; sink: ActionSink }): Promise<MountedView> {
  const { stdin, stdout } = o.ctx.io;
  let said = nothingSaid(o.store.getSnapshot());
  const write = (lines: string[]) => {
    if (lines.length) stdout.write(lines.join('\n') + '\n');
  };
  const interactive = Boolean(stdin.isTTY);
  // The keys line again whenever the keys that apply change (a session read shows it running: `i` applies now).
  let keys: string | undefined;
  const keysNow = (s: ViewState) => {
    const line = keysLine(s);
    if (!interactive || s.ended !== undefined || line === keys) return [];
    keys = line;
    return [line];
  };
  const draw = () => {
    const s = o.store.getSnapshot();
    const step = plainLines(said, s);
    said = step.said;
    write([...step.lines, ...keysNow(s)]);
    if (said.written) o.store.flushed(said.written);
  };
  const unsubscribe = o.store.subscribe(draw);
  let close = () => undefined as void;
  if (interactive) {
    const { createInterface } = await import('node:readline');
    const rl = createInterface({ input: stdin as unknown as NodeJS.ReadableStream, terminal: false });
    rl.on('line', (line) => {
      const reply = typedLine(o.store, o.sink, line);
      if (reply) write([reply]);
    });
    close = () => rl.close();
    write(keysNow(o.store.getState()));
  }
  draw();
  return {
    // Nothing ends the plain view by itself: the caller's outcome does.
    exited: new Promise(() => undefined),
    async unmount() {
      o.store.publishNow();
      draw();
      o.store.close();
      unsubscribe();
      close();
    },
  };
}
