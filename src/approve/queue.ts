/**
 * The terminal queue of `svc approve`: every awaited confirmation of the selected sessions, oldest first, as a pure
 * reducer (docs/contributing.md: gemini-cli's reducer and key table). Items are keyed by session and event; a snapshot from the
 * feed replaces the list, and an item it no longer holds that was not answered here was answered elsewhere.
 */

export interface QueueItem {
  /** `SESSION/EVENT`. */
  key: string;
  sessionId: string;
  title?: string;
  agent: string;
  eventId: string;
  tool: string;
  input: unknown;
  threadId?: string;
  /** When the call was asked (ms). */
  askedAt: number;
}

export interface Notice {
  text: string;
  level: 'info' | 'error';
}

export interface QueueState {
  items: QueueItem[];
  /** The key of the selected item (kept across snapshots). */
  selected?: string;
  /** Skipped items, shown after the others until answered. */
  skipped: ReadonlySet<string>;
  /** Items being answered here, with what is shown for them. */
  busy: Readonly<Record<string, string>>;
  /** Typing the message of a deny for this item. */
  denying?: { key: string; text: string };
  help: boolean;
  readonly: boolean;
  /** Lines the input is scrolled by. */
  scroll: number;
  loaded: boolean;
  notice?: Notice;
  /** The last failure of the feed, shown until a snapshot arrives. */
  feedError?: string;
}

export type Action =
  | { type: 'snapshot'; items: QueueItem[] }
  | { type: 'feedError'; message: string }
  | { type: 'move'; by: number }
  | { type: 'skip' }
  | { type: 'scroll'; by: number }
  | { type: 'denyStart' }
  | { type: 'denyType'; text: string }
  | { type: 'denyBackspace' }
  | { type: 'denyCancel' }
  | { type: 'busy'; key: string; text: string }
  | { type: 'answered'; key: string; notice: Notice; gone: boolean }
  | { type: 'help' }
  | { type: 'notice'; notice: Notice };

export const initialQueue = (o: { readonly: boolean }): QueueState => ({
  items: [],
  skipped: new Set(),
  busy: {},
  help: false,
  readonly: o.readonly,
  scroll: 0,
  loaded: false,
});

/** The items in the order shown: oldest first, skipped ones last. */
export function ordered(s: Pick<QueueState, 'items' | 'skipped'>): QueueItem[] {
  const byAge = [...s.items].sort((a, b) => a.askedAt - b.askedAt || (a.key < b.key ? -1 : 1));
  return [...byAge.filter((i) => !s.skipped.has(i.key)), ...byAge.filter((i) => s.skipped.has(i.key))];
}

export function selectedItem(s: QueueState): QueueItem | undefined {
  return s.items.find((i) => i.key === s.selected) ?? ordered(s)[0];
}

/** An item's key. */
export const itemKey = (sessionId: string, eventId: string) => `${sessionId}/${eventId}`;

export function reduce(s: QueueState, a: Action): QueueState {
  switch (a.type) {
    case 'snapshot': {
      const keys = new Set(a.items.map((i) => i.key));
      const vanished = s.items.filter((i) => !keys.has(i.key) && s.busy[i.key] === undefined);
      const keep = <T>(r: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(r).filter(([k]) => keys.has(k)));
      let selected = s.selected;
      if (selected !== undefined && !keys.has(selected)) selected = nextAfter(s, selected, keys);
      const notice: Notice | undefined =
        s.loaded && vanished.length
          ? { text: `answered elsewhere: ${vanished.map((i) => `${i.tool} in ${i.title ?? i.sessionId}`).join(', ')}`, level: 'info' }
          : s.notice;
      return {
        ...s,
        items: a.items,
        selected: selected ?? ordered({ items: a.items, skipped: s.skipped })[0]?.key,
        skipped: new Set([...s.skipped].filter((k) => keys.has(k))),
        busy: keep(s.busy),
        denying: s.denying && keys.has(s.denying.key) ? s.denying : undefined,
        loaded: true,
        notice,
        feedError: undefined,
      };
    }
    case 'feedError':
      return { ...s, feedError: a.message };
    case 'move': {
      const list = ordered(s);
      if (!list.length) return s;
      const at = Math.max(
        0,
        list.findIndex((i) => i.key === selectedItem(s)?.key),
      );
      const to = Math.min(list.length - 1, Math.max(0, at + a.by));
      return to === at ? s : { ...s, selected: list[to].key, scroll: 0 };
    }
    case 'skip': {
      const item = selectedItem(s);
      if (!item) return s;
      const skipped = new Set(s.skipped);
      skipped.add(item.key);
      // The one after it, as the list stood; else the oldest not skipped.
      const before = ordered(s);
      const after = before.slice(before.findIndex((i) => i.key === item.key) + 1).find((i) => !skipped.has(i.key));
      const next = after ?? ordered({ items: s.items, skipped })[0];
      return { ...s, skipped, selected: next?.key, scroll: 0, notice: { text: `skipped ${item.tool} in ${item.title ?? item.sessionId}`, level: 'info' } };
    }
    case 'scroll':
      return { ...s, scroll: Math.max(0, s.scroll + a.by) };
    case 'denyStart': {
      const item = selectedItem(s);
      return item && !s.readonly && s.busy[item.key] === undefined ? { ...s, denying: { key: item.key, text: '' } } : s;
    }
    case 'denyType':
      return s.denying ? { ...s, denying: { ...s.denying, text: s.denying.text + a.text } } : s;
    case 'denyBackspace':
      return s.denying ? { ...s, denying: { ...s.denying, text: [...s.denying.text].slice(0, -1).join('') } } : s;
    case 'denyCancel':
      return { ...s, denying: undefined };
    case 'busy':
      return { ...s, busy: { ...s.busy, [a.key]: a.text }, denying: undefined };
    case 'answered': {
      const { [a.key]: _done, ...busy } = s.busy;
      if (!a.gone) return { ...s, busy, notice: a.notice };
      const keys = new Set(s.items.filter((i) => i.key !== a.key).map((i) => i.key));
      const selected = s.selected === a.key ? nextAfter(s, a.key, keys) : s.selected;
      return { ...s, busy, items: s.items.filter((i) => i.key !== a.key), selected, notice: a.notice, scroll: 0 };
    }
    case 'help':
      return { ...s, help: !s.help };
    case 'notice':
      return { ...s, notice: a.notice };
  }
}

/** The item shown after `key` that is still there, else the one before it. */
function nextAfter(s: QueueState, key: string, keys: ReadonlySet<string>): string | undefined {
  const list = ordered(s);
  const at = list.findIndex((i) => i.key === key);
  return list.slice(at + 1).find((i) => keys.has(i.key))?.key ?? [...list.slice(0, Math.max(0, at))].reverse().find((i) => keys.has(i.key))?.key;
}
