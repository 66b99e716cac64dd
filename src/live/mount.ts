/** Puts the live view on the terminal and takes it off again, leaving the terminal as it was on every way out. */
import type { Ctx } from '../runtime/context';
import type { InStream, OutStream } from '../runtime/io';
import type { loadInk } from './load-ink';
import { redrawOnResize, RecentLines } from './resize';
import type { ActionSink } from './sink';
import type { LiveStore } from './store';
import { dropTypeahead } from './typeahead';

const SHOW_CURSOR = '\u001b[?25h';
/** Bracketed paste: the terminal marks pasted text, so a paste reaches the composer as text, never as keys. */
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

/**
 * How Ink renders the live view. The store already paces frames (FRAME_MS); Ink's own throttle (30 fps by default)
 * would defer a frame's redraw past the transcript lines written with it, making two terminal writes of one frame and,
 * beating against the store's pace, more than 30 a second. At 1000 its window (1 ms) never holds a second frame.
 */
export const INK_OPTIONS = { exitOnCtrlC: false, patchConsole: false, maxFps: 1000 } as const;

export interface MountedView {
  /** Settles when Ink exits by itself (its own error, or an exit from inside the tree). */
  exited: Promise<unknown>;
  /** Draws what the store holds now, then unmounts and restores the terminal; the last frame stays on the screen. */
  unmount(): Promise<void>;
}

/**
 * Renders the view with Ink as loadInk loaded it. Keys are read only when standard input can be put in raw mode, and
 * only those typed after the first frame: what the terminal held before is dropped, and the footer says so.
 */
export async function mountView(o: { ctx: Ctx; ink: Awaited<ReturnType<typeof loadInk>>; store: LiveStore; sink: ActionSink }): Promise<MountedView> {
  const [{ render }, { liveView }] = o.ink;
  const { stdin, stdout, stderr } = o.ctx.io;
  const interactive = Boolean(stdin.isTTY && stdin.setRawMode);
  const restore = () => restoreTerminal(stdin, stdout, interactive);
  process.once('exit', restore);
  if (interactive) {
    o.store.dispatch({ type: 'typeahead', keys: await dropTypeahead(stdin) });
    o.store.publishNow();
  }
  // Before render: its resize handler must run ahead of Ink's.
  const recent = new RecentLines();
  const unwatchResize = stdout.isTTY ? redrawOnResize(stdout, recent) : () => undefined;
  if (interactive && stdout.isTTY) stdout.write(PASTE_ON);
  const view = liveView({ store: o.store, sink: o.sink, interactive, color: o.ctx.useColor(stdout), onWrite: recent.add });
  const ink = render(view, {
    stdout: stdout as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as NodeJS.WriteStream,
    ...INK_OPTIONS,
  });
  return {
    exited: ink.waitUntilExit(),
    async unmount() {
      // React commits a published state on a later tick, which an unmount now would overtake: the tree is rendered
      // again synchronously first, so the last events are on the screen.
      o.store.publishNow();
      ink.rerender(view);
      o.store.close();
      ink.unmount();
      await ink.waitUntilExit().catch(() => undefined);
      unwatchResize();
      restore();
      process.removeListener('exit', restore);
    },
  };
}

/** Raw mode off, pasting plain again and the cursor shown, whatever Ink managed to do on its way out. */
function restoreTerminal(stdin: InStream, stdout: OutStream, interactive: boolean): void {
  if (stdin.isTTY && stdin.setRawMode) stdin.setRawMode(false);
  if (stdout.isTTY) stdout.write((interactive ? PASTE_OFF : '') + SHOW_CURSOR);
}
