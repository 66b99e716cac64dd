/**
 * Accessible mode's views of appended lines (svc top's board, svc approve's queue): a first line saying what the lines
 * are, then lines until the user leaves: `q` and Enter (returns), Ctrl-C (InterruptedError, exit 130) or SIGTERM
 * (returns, a clean stop). Nothing is redrawn.
 */
import type { Ctx } from '../runtime/context';
import { stoppedByTerm } from '../runtime/io';

export async function plainUntilLeft(ctx: Ctx, o: { title: string; hint: string }, start: (signal: AbortSignal) => void): Promise<void> {
  const { stdin, stdout } = ctx.io;
  const [{ InterruptedError }, { settable }, { createInterface }] = await Promise.all([
    import('../runtime/errors'),
    import('./outcome'),
    import('node:readline'),
  ]);
  const [left, leave] = settable<'quit' | 'abort'>();
  const onSignal = () => leave('abort');
  ctx.io.signal?.addEventListener('abort', onSignal, { once: true });
  if (ctx.io.signal?.aborted) onSignal();
  const rl = stdin.isTTY ? createInterface({ input: stdin as unknown as NodeJS.ReadableStream, terminal: false }) : undefined;
  rl?.on('line', (line) => {
    if (line.trim().toLowerCase() === 'q') leave('quit');
    else if (line.trim()) stdout.write(`type q and Enter to quit; ${o.hint}\n`);
  });
  stdout.write(`${o.title}${rl ? '; type q and Enter to quit' : ''}\n`);
  const stop = new AbortController();
  start(stop.signal);
  try {
    if ((await left) === 'abort' && !stoppedByTerm(ctx.io.signal)) throw new InterruptedError();
  } finally {
    stop.abort();
    rl?.close();
    ctx.io.signal?.removeEventListener('abort', onSignal);
  }
}
