import { CURSOR_START } from '../../wire/events';

const CHUNK_BYTES = 8 * 1024 * 1024;

/** A growable array of unsigned 32-bit integers. */
class U32List {
  private data = new Uint32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  at(i: number): number {
    return this.data[i];
  }
}

/** Small tables of the few distinct strings (event types, thread ids), so each event stores a number. */
class Interned {
  private readonly codes = new Map<string | undefined, number>([[undefined, 0]]);
  private readonly values: Array<string | undefined> = [undefined];

  code(v: string | undefined): number {
    let c = this.codes.get(v);
    if (c === undefined) {
      c = this.values.push(v) - 1;
      this.codes.set(v, c);
    }
    return c;
  }

  value(c: number): string | undefined {
    return this.values[c];
  }
}

/**
 * A session's history, kept compact: each event's JSON once, as UTF-8 bytes in large chunks (reused for
 * history pages and stream frames), plus its type and thread as codes, about 16 bytes per event beside the JSON.
 * Position p (1-based) is the event at index p-1; a cursor names the position last seen.
 */
export class EventLog {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;
  private readonly chunkOf = new U32List();
  private readonly offsetOf = new U32List();
  private readonly lengthOf = new U32List();
  private readonly typeOf = new U32List();
  private readonly threadOf = new U32List();
  private readonly types = new Interned();
  private readonly threads = new Interned();

  get length(): number {
    return this.lengthOf.length;
  }

  append(json: string, type: string, threadId: string | undefined): number {
    const size = Buffer.byteLength(json);
    if (this.used + size > (this.chunks[this.chunks.length - 1]?.length ?? 0)) {
      this.chunks.push(Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size)));
      this.used = 0;
    }
    this.chunks[this.chunks.length - 1].write(json, this.used);
    this.chunkOf.push(this.chunks.length - 1);
    this.offsetOf.push(this.used);
    this.lengthOf.push(size);
    this.typeOf.push(this.types.code(type));
    this.threadOf.push(this.threads.code(threadId));
    this.used += size;
    return this.length;
  }

  jsonAt(i: number): string {
    const start = this.offsetOf.at(i);
    return this.chunks[this.chunkOf.at(i)].toString('utf8', start, start + this.lengthOf.at(i));
  }

  typeAt(i: number): string {
    return this.types.value(this.typeOf.at(i))!;
  }

  threadAt(i: number): string | undefined {
    return this.threads.value(this.threadOf.at(i));
  }

  dump(): { json: string[]; types: string[]; threads: Array<string | null> } {
    const all = Array.from({ length: this.length }, (_, i) => i);
    return { json: all.map((i) => this.jsonAt(i)), types: all.map((i) => this.typeAt(i)), threads: all.map((i) => this.threadAt(i) ?? null) };
  }

  static load(d: { json: string[]; types: string[]; threads: Array<string | null> }): EventLog {
    const log = new EventLog();
    d.json.forEach((j, i) => log.append(j, d.types[i], d.threads[i] ?? undefined));
    return log;
  }
}

/**
 * Which events a stream or history page shows: the whole session, or one thread
 * (the coordinator's thread shows the events without `session_thread_id`).
 */
export interface LogView {
  /** Thread ID for thread streams; undefined for the session stream. */
  threadId?: string;
  /** The `session_thread_id` value the thread's events carry (undefined for the coordinator). */
  match?: string;
}

export const viewIncludes = (log: EventLog, view: LogView, i: number): boolean => view.threadId === undefined || log.threadAt(i) === view.match;

/**
 * Frame ids: the position as decimal on the session stream, `THREAD.POSITION` on a thread stream,
 * so a thread cursor is usable only on its own thread's stream. Position 0 is `0` everywhere.
 */
export function encodeCursor(view: LogView, pos: number): string {
  if (pos === 0) return CURSOR_START;
  return view.threadId === undefined ? String(pos) : `${view.threadId}.${pos}`;
}

/** The position a cursor names on this view, or undefined when it is not one of this view's cursors. */
export function decodeCursor(view: LogView, cursor: string, head: number): number | undefined {
  if (cursor === CURSOR_START) return 0;
  let digits = cursor;
  if (view.threadId !== undefined) {
    const prefix = `${view.threadId}.`;
    if (!cursor.startsWith(prefix)) return undefined;
    digits = cursor.slice(prefix.length);
  }
  if (!/^[1-9][0-9]{0,15}$/.test(digits)) return undefined;
  const pos = Number(digits);
  return pos <= head ? pos : undefined;
}
