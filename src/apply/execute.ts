import { ApiError, NetworkError } from '../api/errors';
import type { Ctx } from '../runtime/context';
import type { Entry } from './types';

/**
 * Sends the plan's writes in order and stops at the first that fails: stderr says what was applied and what
 * was not, and the error (its exit code) goes up. A write that got no answer or a 5xx may have been applied;
 * a re-run finds it (`findBy`: by name, or by name and label) instead of creating it twice.
 */
export async function execute(ctx: Ctx, entries: Entry[], findBy: string): Promise<void> {
  const steps = entries.flatMap((e) => e.steps);
  for (const [i, step] of steps.entries()) {
    try {
      await step.run();
    } catch (err) {
      const unknown = err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);
      await ctx.msg(
        `applied: ${
          i
            ? steps
                .slice(0, i)
                .map((s) => s.label)
                .join(', ')
            : 'nothing'
        }`,
      );
      await ctx.msg(
        `not applied: ${steps
          .slice(i)
          .map((s) => s.label)
          .join(', ')}`,
      );
      if (unknown)
        await ctx.msg(`note: "${step.label}" got no clear answer and may have been applied; run apply again: it finds what exists ${findBy} before creating`);
      throw err;
    }
  }
}
