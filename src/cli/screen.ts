import type { Ctx } from '../runtime/context';
import { UsageError } from '../runtime/errors';

/**
 * A full-screen view (the live view, the board) owns the terminal: `--debug` lines written to the same terminal would
 * tear it, so with stderr on that terminal they are refused (exit 2, before any request) and must go elsewhere.
 */
export function refuseDebugOnScreen(ctx: Ctx, view: string, remedy: string): void {
  if (ctx.settings.debug && ctx.io.stderr.isTTY) throw new UsageError(`--debug writes to the terminal the ${view} is drawn on: ${remedy}`);
}

/** The live view of `sessions tail`, `threads tail` and `run` on a terminal. */
export const refuseDebugOnLiveView = (ctx: Ctx): void => refuseDebugOnScreen(ctx, 'live view', 'send it to a file (2>debug.log) or add --no-live');
