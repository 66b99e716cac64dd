/** Turns a key press into a command from the key table and runs it: view changes through the store, the rest through the sink. */
import { commandFor, type Command, type KeyPress } from './keys';
import { nextConfirmation } from './reducer';
import type { ActionSink } from './sink';
import { splitKeys } from './split-keys';
import type { LiveStore } from './store';

/** Bracketed paste's markers as Ink passes them on (its parser strips the leading ESC). */
const PASTE_START = '[200~';
const PASTE_END = '[201~';

/**
 * Reads what the terminal sends, in order. One read may carry several keys (a fast typist over ssh: `tt`, `hi⏎`):
 * each is handled as if it came alone. Text between bracketed-paste markers is pasted: the composer takes it as text
 * (its line breaks kept), and outside the composer it is dropped, never read as keys.
 */
export class KeyReader {
  private pasting = false;

  constructor(
    private readonly store: LiveStore,
    private readonly sink: ActionSink,
  ) {}

  read = (input: string, k: KeyPress): void => {
    if (input === PASTE_START || input === PASTE_END) {
      this.pasting = input === PASTE_START;
      return;
    }
    if (this.pasting) {
      const text = k.return ? '\r' : k.tab ? '\t' : input;
      if (this.store.getState().compose && text) this.store.dispatch({ type: 'compose.input', text });
      return;
    }
    for (const [key, press] of splitKeys(input, k)) handleKey(this.store, this.sink, key, press);
  };
}

/** Reads the store at the moment of the key press, so a handler never acts on a stale state. */
export function handleKey(store: LiveStore, sink: ActionSink, input: string, k: KeyPress): Command | undefined {
  const s = store.getState();
  const command = commandFor(input, k, s);
  if (command) runCommand(command, store, sink);
  else if (s.compose && input && !k.ctrl && !k.meta) store.dispatch({ type: 'compose.input', text: input });
  return command;
}

export function runCommand(command: Command, store: LiveStore, sink: ActionSink): void {
  const s = store.getState();
  switch (command) {
    case 'interrupt':
      return sink.interrupt(s.epoch);
    case 'continue':
      return sink.continue();
    case 'compose':
      return store.dispatch({ type: 'compose.open' });
    case 'send':
      store.dispatch({ type: 'compose.close' });
      return sink.send(s.compose?.text ?? '', s.compose?.mode ?? 'next_turn');
    case 'toggleMode':
      return store.dispatch({ type: 'compose.toggle' });
    case 'cancelCompose':
      return store.dispatch({ type: 'compose.close' });
    case 'backspace':
      return store.dispatch({ type: 'compose.backspace' });
    case 'allow':
    case 'deny': {
      const c = nextConfirmation(s);
      if (!c) return;
      store.dispatch({ type: 'confirmation.answering', eventId: c.eventId, answering: true });
      return sink.confirm(c.eventId, command);
    }
    case 'cycleThread':
      return store.dispatch({ type: 'filter.cycle' });
    case 'toggleDeltas':
      return store.dispatch({ type: 'deltas.toggle' });
    case 'quit':
      return sink.quit();
    case 'abort':
      return sink.abort();
  }
}
