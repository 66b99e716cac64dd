import { StringDecoder } from 'node:string_decoder';

export interface Line {
  text: string;
  /** The line was longer than the bound: `text` is its head, and the rest of it, up to its newline, is skipped. */
  cut: boolean;
}

/**
 * The lines of a stream, without their newline (a last line without one too), in time linear in the input: each
 * byte is searched once and only the current line is kept, never more than `maxBytes` of it. A longer line is
 * yielded as soon as its head is complete, marked `cut`; its rest is skipped unread into memory.
 */
export async function* lines(stream: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let kept = 0;
  let skipping = false;
  const take = (): string => {
    // A cut can fall inside a character: the decoder keeps only whole ones.
    const text = new StringDecoder('utf8').write(Buffer.concat(parts, kept));
    parts = [];
    kept = 0;
    return text;
  };
  for await (const raw of stream) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    for (let from = 0; from < chunk.length;) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      if (!skipping) {
        const room = maxBytes - kept;
        const piece = chunk.subarray(from, Math.min(end, from + room));
        if (piece.length > 0) parts.push(piece);
        kept += piece.length;
        if (end - from > room) {
          skipping = true;
          yield { text: take(), cut: true };
        }
      }
      if (nl < 0) break;
      if (skipping) skipping = false;
      else yield { text: take(), cut: false };
      from = nl + 1;
    }
  }
  if (!skipping && kept > 0) yield { text: take(), cut: false };
}
