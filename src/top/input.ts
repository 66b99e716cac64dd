/** Turns a key press into a command from the key table and runs it: board changes through the store, the rest through the sink. */
import { splitKeys, NAMED_KEYS } from '../live/split-keys';
import { commandFor, type Command, type KeyBinding } from './keys';
import type { SessionRow } from './rows';
import type { BoardSink } from './sink';
import { pageSize, selectedRow, targets, VIEWS } from './state';
import type { BoardStore } from './store';

type Press = Parameters<KeyBinding['matches']>[1];

/** Reads the store at the moment of the key press, so a handler never acts on a stale state. */
export function handleKey(store: BoardStore, sink: BoardSink, input: string, k: Press): Command | undefined {
  const s = store.getState();
  const command = commandFor(input, k, s);
  if (command) runCommand(command, input, store, sink);
  else if (s.filtering && input && !k.ctrl && !k.meta) store.dispatch({ type: 'filter.input', text: input });
  // A key is drawn at once; only the feed's changes wait for the next frame.
  store.publishNow();
  return command;
}

/** The board takes no tab inside a burst of keys: it is dropped there, like other unnamed control characters. */
const BOARD_KEYS = Object.fromEntries(Object.entries(NAMED_KEYS).filter(([ch]) => ch !== '\t'));

/**
 * Several keys in one read (a fast typist over ssh, `/idle⏎` typed at once) are handled one by one, as if each came
 * alone; control characters are named as Ink names them.
 */
export function readKeys(store: BoardStore, sink: BoardSink, input: string, k: Press): void {
  for (const [key, press] of splitKeys(input, k, BOARD_KEYS)) handleKey(store, sink, key, press);
}

export function runCommand(command: Command, input: string, store: BoardStore, sink: BoardSink): void {
  const s = store.getState();
  const ids = () => targets(s).filter((r) => !s.busy[r.id]);
  switch (command) {
    case 'down':
      return store.dispatch({ type: 'move', by: 1 });
    case 'up':
      return store.dispatch({ type: 'move', by: -1 });
    case 'pageDown':
      return store.dispatch({ type: 'move', by: pageSize(s) });
    case 'pageUp':
      return store.dispatch({ type: 'move', by: -pageSize(s) });
    case 'first':
      return store.dispatch({ type: 'moveTo', index: 0 });
    case 'last':
      return store.dispatch({ type: 'moveTo', index: -1 });
    case 'view':
      return store.dispatch({ type: 'view', view: VIEWS[Number(input) - 1] });
    case 'filter':
      return store.dispatch({ type: 'filter.open' });
    case 'filterDone':
      return store.dispatch({ type: 'filter.done' });
    case 'filterClear':
      return store.dispatch({ type: 'filter.clear' });
    case 'filterBackspace':
      return store.dispatch({ type: 'filter.backspace' });
    case 'sort':
      return store.dispatch({ type: 'sort.cycle' });
    case 'mark':
      return store.dispatch({ type: 'mark.toggle' });
    case 'interrupt':
    case 'continue':
      return sink.act(
        command,
        ids().map((r) => r.id),
      );
    case 'archive': {
      const rows = ids().filter((r) => !r.archived);
      return store.dispatch({ type: 'ask', action: 'archive', ids: rows.map((r) => r.id) });
    }
    case 'yes': {
      const asked = s.asking;
      store.dispatch({ type: 'ask.close' });
      if (asked?.ids.length) sink.act(asked.action, asked.ids);
      return;
    }
    case 'no':
      return store.dispatch({ type: 'ask.close' });
    case 'allow':
    case 'deny': {
      const r = selectedRow(s) as SessionRow | undefined;
      if (r) sink.answer(r.id, command);
      return;
    }
    case 'open': {
      const r = selectedRow(s);
      if (r) sink.open(r.id);
      return;
    }
    case 'figures':
      return store.dispatch({ type: 'figures.toggle' });
    case 'help':
    case 'closeHelp':
      return store.dispatch({ type: 'help.toggle' });
    case 'quit':
      return sink.quit();
    case 'abort':
      return sink.abort();
  }
}
