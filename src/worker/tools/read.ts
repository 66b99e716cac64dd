import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { confine } from './confine';
import type { ToolContext } from './context';
import { openRegular } from './open';
import { ok, optInt, str, ToolError, type Input, type ToolResult } from './result';

const DEFAULT_LINES = 2000;
const CHUNK_BYTES = 64 * 1024;

/**
 * `read {path, offset?, limit?}`: lines numbered like `cat -n`; `offset` is the first line (1-based), `limit` the count.
 * Only the window is kept: lines before it are counted and dropped, and reading stops once the window is full
 * (or its text reaches the output cap), so a huge file costs what the window costs.
 */
export async function read(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const shown = str(input, 'path');
  const path = await confine(ctx, shown);
  const offset = optInt(input, 'offset', 1) ?? 1;
  const limit = optInt(input, 'limit', 1) ?? DEFAULT_LINES;
  const handle = await openRegular(path, shown, 'read');
  try {
    const window = new LineWindow(offset, limit, ctx.maxOutputChars);
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let at = 0; !window.full && !ctx.signal.aborted;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      at += bytesRead;
      window.push(decoder.write(buf.subarray(0, bytesRead)));
    }
    if (ctx.signal.aborted) throw new ToolError('stopped before the file was read');
    if (!window.full) window.push(decoder.end());
    return ok(window.text());
  } finally {
    await handle.close();
  }
}

/** The lines `offset`..`offset + limit - 1` of a text fed in pieces, numbered, capped at `maxChars`. */
class LineWindow {
  private line = 1;
  private partial = '';
  private readonly shown: string[] = [];
  private chars = 0;
  private capped = false;
  /** A line past the window was seen: the file goes on. */
  private more = false;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
    private readonly maxChars: number,
  ) {}

  get full(): boolean {
    return this.more || this.capped;
  }

  push(piece: string): void {
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl >= 0 && !this.full; nl = piece.indexOf('\n', from)) {
      this.take(piece.slice(from, nl), true);
      from = nl + 1;
    }
    if (!this.full && from < piece.length) this.take(piece.slice(from), false);
  }

  text(): string {
    // The last line needs no newline to count.
    if (!this.full && this.partial !== '') this.emit(this.partial);
    const body = this.shown.join('\n');
    const next = this.offset + this.shown.length;
    if (this.capped) return `${body}\n[output truncated at ${this.maxChars} characters; read on with a smaller limit or a later offset]`;
    return this.more ? `${body}\n[more lines follow; read on with offset ${next}]` : body;
  }

  /** `ended`: the newline of this line was seen. */
  private take(text: string, ended: boolean): void {
    if (this.line < this.offset) {
      if (ended) this.line++;
      return;
    }
    if (this.line >= this.offset + this.limit) {
      this.more = true;
      return;
    }
    this.partial += text;
    if (this.partial.length > this.maxChars) {
      this.emit(this.partial.slice(0, this.maxChars));
      this.capped = true;
      return;
    }
    if (!ended) return;
    this.emit(this.partial);
    this.partial = '';
    this.line++;
  }

  private emit(line: string): void {
    const numbered = `${String(this.offset + this.shown.length).padStart(6)}\t${line}`;
    const room = this.maxChars - this.chars;
    if (numbered.length > room) {
      this.shown.push(numbered.slice(0, Math.max(room, 0)));
      this.capped = true;
      return;
    }
    this.shown.push(numbered);
    this.chars += numbered.length + 1;
  }
}

export async function statOrFail(path: string, shown: string) {
  try {
    return await stat(path);
  } catch (e) {
    throw new ToolError(`${shown}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}
