import type { Obj } from '../api/resources';
import type { Ctx } from '../runtime/context';
import { InterruptedError, UsageError } from '../runtime/errors';
import { write } from '../runtime/io';
import { age } from '../output/age';
import { escapeControls } from '../output/controls';
import { cellText, truncate } from '../output/table';
import type { PickSource } from './pick-arg';
import { article } from './verbs/spec';

/** How many recent resources the picker offers: one screen. */
export const PICK_LIMIT = 20;

/** What a key does in the picker. */
export type PickKey = 'up' | 'down' | 'first' | 'last' | 'choose' | 'cancel';

export interface PickerState {
  rows: string[][];
  ids: string[];
  cursor: number;
  /** Set once Enter or a cancel key ends the picker. */
  outcome?: 'chosen' | 'cancelled';
}

/** One row per resource: ID, name or title, status, how long ago it changed (json never comes here). */
export function pickerState(items: Obj[], now: number, status: (o: Obj) => unknown = (o) => o.status): PickerState {
  const rows = items.map((o) => [
    String(o.id ?? ''),
    cellText(o.name ?? o.title ?? o.display_name),
    cellText(o.archived_at ? 'archived' : status(o)),
    cellText(age(o.updated_at ?? o.created_at, now)),
  ]);
  return { rows: rows.map((r) => r.map((c) => escapeControls(c))), ids: items.map((o) => String(o.id ?? '')), cursor: 0 };
}

/** The picker's state after one key: the cursor moves within the rows (wrapping, as gh's prompts do), Enter or Esc ends it. */
export function pickerStep(s: PickerState, key: PickKey): PickerState {
  if (s.outcome) return s;
  const n = s.rows.length;
  switch (key) {
    case 'up':
      return { ...s, cursor: (s.cursor - 1 + n) % n };
    case 'down':
      return { ...s, cursor: (s.cursor + 1) % n };
    case 'first':
      return { ...s, cursor: 0 };
    case 'last':
      return { ...s, cursor: n - 1 };
    case 'choose':
      return { ...s, outcome: 'chosen' };
    case 'cancel':
      return { ...s, outcome: 'cancelled' };
  }
}

/**
 * The keys in one read of a terminal in raw mode, in order: a paste or a fast typist sends several at once. Arrows
 * and j/k move, g/G and Home/End jump, Enter chooses, Esc, q and Ctrl-C cancel; anything else is ignored.
 */
export function pickerKeys(chunk: string): PickKey[] {
  const keys: PickKey[] = [];
  for (let i = 0; i < chunk.length; i++) {
    const ch = chunk[i];
    if (ch === '\x1b') {
      const seq = /^\x1b(?:\[[0-9;]*[A-Za-z~]|O[A-Za-z])/.exec(chunk.slice(i));
      if (!seq) {
        keys.push('cancel');
        continue;
      }
      const key = ESCAPES[seq[0].replace(/^\x1b(\[|O)/, '')];
      if (key) keys.push(key);
      i += seq[0].length - 1;
      continue;
    }
    const key = CHARS[ch];
    if (key) keys.push(key);
  }
  return keys;
}

const ESCAPES: Record<string, PickKey> = { A: 'up', B: 'down', H: 'first', F: 'last', '1~': 'first', '4~': 'last' };
const CHARS: Record<string, PickKey> = { k: 'up', j: 'down', g: 'first', G: 'last', '\r': 'choose', '\n': 'choose', '\x03': 'cancel', q: 'cancel' };

/** The picker as lines: a question, then one aligned row per resource, the cursor's row marked. */
export function pickerLines(s: PickerState, noun: string, o: { width?: number; color: boolean }): string[] {
  const widths = s.rows[0]?.map((_, i) => Math.max(...s.rows.map((r) => r[i].length))) ?? [];
  const question = `? Pick ${article(noun)} (↑/↓ or j/k to move, Enter to choose, Esc to cancel)`;
  const rows = s.rows.map((r, i) => {
    const text =
      (i === s.cursor ? '> ' : '  ') +
      r
        .map((c, j) => c.padEnd(widths[j]))
        .join('  ')
        .trimEnd();
    const cut = o.width ? truncate(text, o.width - 1) : text;
    return i === s.cursor && o.color ? `\x1b[36;1m${cut}\x1b[0m` : cut;
  });
  return [o.width ? truncate(question, o.width - 1) : question, ...rows];
}

/** Accessible mode's picker: the question, then one numbered row per resource, plain (no cursor, no colour). */
export function numberedLines(s: PickerState, noun: string): string[] {
  const widths = s.rows[0]?.map((_, i) => Math.max(...s.rows.map((r) => r[i].length))) ?? [];
  const digits = String(s.rows.length).length;
  const rows = s.rows.map(
    (r, i) =>
      `${String(i + 1).padStart(digits)}. ` +
      r
        .map((c, j) => c.padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
  );
  return [`? Pick ${article(noun)}:`, ...rows];
}

/** The row a typed answer picks (1-based), or undefined when it is not one of the numbers offered. */
export function numberedAnswer(answer: string, count: number): number | undefined {
  if (!/^\d+$/.test(answer)) return undefined;
  const n = Number(answer);
  return n >= 1 && n <= count ? n - 1 : undefined;
}

/** Asks for a number until one of the rows is typed; q cancels (exit 130), as Esc does in the arrow-key picker. */
async function pickNumbered(ctx: Ctx, state: PickerState, noun: string): Promise<number> {
  const { plainAnswers } = await import('../input/prompt');
  await ctx.msg(numberedLines(state, noun).join('\n'));
  const n = state.rows.length;
  const answers = await plainAnswers(ctx.io);
  try {
    for (
      let ask = `Type a number from 1 to ${n}, then Enter (q to cancel): `;
      ;
      ask = `Not one of the numbers: type a number from 1 to ${n}, then Enter (q to cancel): `
    ) {
      const answer = await answers.ask(ask);
      if (answer.toLowerCase() === 'q') throw new InterruptedError();
      const i = numberedAnswer(answer, n);
      if (i !== undefined) return i;
    }
  } finally {
    answers.close();
  }
}

/**
 * Offers the most recent resources of `source` on the terminal (stderr, stdin in raw mode) and returns the ID
 * chosen. Esc or Ctrl-C is exit 130 and nothing is sent; the terminal is restored however it ends. Accessible
 * mode asks for the row's number instead.
 */
export async function pickId(ctx: Ctx, source: PickSource): Promise<string> {
  const c = await ctx.api();
  const items: Obj[] = [];
  for await (const o of await source.recent(c, PICK_LIMIT)) {
    items.push(o);
    if (items.length >= PICK_LIMIT) break;
  }
  if (!items.length) throw new UsageError(`missing the ${source.noun} ID, and there are no ${source.noun}s to pick from`);
  let state = pickerState(items, ctx.now(), source.status);
  if (ctx.settings.accessible) {
    const i = await pickNumbered(ctx, state, source.noun);
    await ctx.msg(`picked ${i + 1}: ${[state.ids[i], state.rows[i][1]].filter(Boolean).join('  ')}`);
    return state.ids[i];
  }
  const err = ctx.io.stderr;
  const color = ctx.useColor(err);
  let drawn = 0;
  const draw = async () => {
    const lines = pickerLines(state, source.noun, { width: err.columns, color });
    await write(err, (drawn ? `\x1b[${drawn}A\r\x1b[J` : '') + lines.join('\n') + '\n');
    drawn = lines.length;
  };
  const stdin = ctx.io.stdin as unknown as NodeJS.ReadStream;
  const wasRaw = Boolean(stdin.isRaw);
  stdin.setRawMode?.(true);
  await write(err, '\x1b[?25l');
  try {
    await draw();
    await new Promise<void>((resolve, reject) => {
      const stop = (e?: Error) => {
        stdin.off('data', onData);
        stdin.off('end', onEnd);
        ctx.io.signal?.removeEventListener('abort', onAbort);
        stdin.pause();
        if (e) reject(e);
        else resolve();
      };
      const onData = (chunk: Buffer | string) => {
        for (const key of pickerKeys(chunk.toString())) state = pickerStep(state, key);
        if (state.outcome === 'cancelled') return stop(new InterruptedError());
        if (state.outcome === 'chosen') return stop();
        void draw();
      };
      const onEnd = () => stop(new UsageError(`no ${source.noun} picked`));
      const onAbort = () => stop(new InterruptedError());
      stdin.on('data', onData);
      stdin.once('end', onEnd);
      ctx.io.signal?.addEventListener('abort', onAbort, { once: true });
      stdin.resume();
    });
  } finally {
    stdin.setRawMode?.(wasRaw);
    // The list goes; one line says what was picked, as gh leaves its answered prompts.
    await write(err, (drawn ? `\x1b[${drawn}A\r\x1b[J` : '') + '\x1b[?25h');
  }
  const id = state.ids[state.cursor];
  await ctx.msg(`? Pick ${article(source.noun)}: ${[id, state.rows[state.cursor][1]].filter(Boolean).join('  ')}`);
  return id;
}
