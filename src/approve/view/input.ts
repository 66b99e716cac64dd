/** A key press turned into a queue command from the key table: queue changes through the store, the rest through the sink. */
import { NAMED_KEYS, splitKeys } from '../../live/split-keys';
import { selectedItem } from '../queue';
import { commandFor, type Press, type QueueCommand } from './keys';
import type { QueueStore } from './store';

/** What the keys do beyond the queue's own state (given by the opener). */
export interface QueueSink {
  answer(sessionId: string, eventId: string, key: string, result: 'allow' | 'deny', message?: string): void;
  open(sessionId: string): void;
  quit(): void;
  abort(): void;
}

/** Lines the input scrolls by with PgUp / PgDn. */
const SCROLL = 5;

export function handleKey(store: QueueStore, sink: QueueSink, input: string, k: Press): QueueCommand | undefined {
  const s = store.getState();
  const command = commandFor(s, input, k);
  const item = selectedItem(s);
  switch (command) {
    case 'down':
      store.dispatch({ type: 'move', by: 1 });
      break;
    case 'up':
      store.dispatch({ type: 'move', by: -1 });
      break;
    case 'scrollDown':
      store.dispatch({ type: 'scroll', by: SCROLL });
      break;
    case 'scrollUp':
      store.dispatch({ type: 'scroll', by: -SCROLL });
      break;
    case 'allow':
      if (item) sink.answer(item.sessionId, item.eventId, item.key, 'allow');
      break;
    case 'deny':
      store.dispatch({ type: 'denyStart' });
      break;
    case 'send': {
      const d = s.denying;
      const it = d && s.items.find((i) => i.key === d.key);
      if (d && it) sink.answer(it.sessionId, it.eventId, it.key, 'deny', d.text.trim() || undefined);
      store.dispatch({ type: 'denyCancel' });
      break;
    }
    case 'cancel':
      store.dispatch({ type: 'denyCancel' });
      break;
    case 'backspace':
      store.dispatch({ type: 'denyBackspace' });
      break;
    case 'skip':
      store.dispatch({ type: 'skip' });
      break;
    case 'open':
      if (item) sink.open(item.sessionId);
      break;
    case 'help':
    case 'closeHelp':
      store.dispatch({ type: 'help' });
      break;
    case 'quit':
      sink.quit();
      break;
    case 'abort':
      sink.abort();
      break;
    default:
      if (s.denying && input && !k.ctrl && !k.meta) store.dispatch({ type: 'denyType', text: input });
  }
  store.publishNow();
  return command;
}

/** Several keys in one read are handled one by one, as if each came alone (svc top does the same). */
export function readKeys(store: QueueStore, sink: QueueSink, input: string, k: Press): void {
  const keys = Object.fromEntries(Object.entries(NAMED_KEYS).filter(([ch]) => ch !== '\t'));
  for (const [key, press] of splitKeys(input, k, keys)) handleKey(store, sink, key, press);
}
