/**
 * A full-screen Ink view that hands over to a session's live view (svc top's board, svc approve's queue): the
 * alternate screen taken and given back on every way out, the view drawn until the user leaves it or opens a session,
 * that session's live view in its place until its `q`, then the view again. Ink loads only here.
 */
import type { ReactElement } from 'react';
import type { ApiClient } from '../api/client';
import type { Ctx } from '../runtime/context';
import { stoppedByTerm } from '../runtime/io';

/** What a view's keys ask of the screen. */
export interface ScreenNav {
  open(sessionId: string): void;
  quit(): void;
  abort(): void;
}

export interface FullScreenOptions {
  ctx: Ctx;
  client: ApiClient;
  readonly: boolean;
  /** The live view's last footer when it hands back. */
  leaveNote: string;
  /** The view for one showing; `interactive` is false when standard input cannot be put in raw mode. */
  view: (nav: ScreenNav, interactive: boolean) => ReactElement;
  /** Before each showing (keys typed meanwhile dropped, say). */
  beforeShow?: (interactive: boolean) => Promise<void>;
}

type Next = { kind: 'quit' } | { kind: 'abort' } | { kind: 'open'; id: string } | { kind: 'error'; error: unknown };

const ALT_SCREEN_ON = '\u001b[?1049h';
const ALT_SCREEN_OFF = '\u001b[?1049l';
const CLEAR = '\u001b[2J\u001b[H';
const SHOW_CURSOR = '\u001b[?25h';

/** Runs the view until the user quits (returns), Ctrl-C (InterruptedError) or SIGTERM (returns). */
export async function runFullScreen(o: FullScreenOptions): Promise<void> {
  const { ctx } = o;
  const { stdin, stdout, stderr } = ctx.io;
  // Ink first, through the live view's loader (it must be evaluated with the CI variables hidden), then what uses it.
  const [ink] = await (await import('./load-ink')).loadInk();
  const [{ InterruptedError }, { settable }] = await Promise.all([import('../runtime/errors'), import('./outcome')]);
  const interactive = Boolean(stdin.isTTY && stdin.setRawMode);
  const restore = () => {
    if (stdin.isTTY && stdin.setRawMode) stdin.setRawMode(false);
    stdout.write(ALT_SCREEN_OFF + SHOW_CURSOR);
  };

  /** The view on the screen until the user leaves it (quit, Ctrl-C, a signal) or opens a session. */
  const show = async (): Promise<Next> => {
    const [next, settle] = settable<Next>();
    const onSignal = () => settle({ kind: 'abort' });
    if (ctx.io.signal?.aborted) return { kind: 'abort' };
    ctx.io.signal?.addEventListener('abort', onSignal, { once: true });
    const nav: ScreenNav = {
      open: (id) => settle({ kind: 'open', id }),
      quit: () => settle({ kind: 'quit' }),
      abort: () => settle({ kind: 'abort' }),
    };
    await o.beforeShow?.(interactive);
    const view = ink.render(o.view(nav, interactive), {
      stdout: stdout as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    view.waitUntilExit().then(
      () => settle({ kind: 'quit' }),
      (error: unknown) => settle({ kind: 'error', error }),
    );
    try {
      return await next;
    } finally {
      ctx.io.signal?.removeEventListener('abort', onSignal);
      view.unmount();
      await view.waitUntilExit().catch(() => undefined);
    }
  };

  process.once('exit', restore);
  stdout.write(ALT_SCREEN_ON + CLEAR);
  try {
    for (;;) {
      const next = await show();
      if (next.kind === 'quit') return;
      // SIGTERM is a clean stop (exit 0), Ctrl-C an interruption (130).
      if (next.kind === 'abort') {
        if (stoppedByTerm(ctx.io.signal)) return;
        throw new InterruptedError();
      }
      if (next.kind === 'error') throw next.error;
      stdout.write(CLEAR);
      const { openLiveView } = await import('./open');
      try {
        await openLiveView({ ctx, client: o.client, sessionId: next.id, deltas: true, leaveNote: o.leaveNote, readonly: o.readonly });
      } catch (e) {
        if (stoppedByTerm(ctx.io.signal)) return;
        throw e;
      }
      stdout.write(CLEAR);
    }
  } finally {
    restore();
    process.removeListener('exit', restore);
  }
}
