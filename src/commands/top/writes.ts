/**
 * The board's writes: interrupt, continue and archive through the bulk executor (its concurrency, shared 429 pause
 * and per-session outcomes), with its report captured instead of printed, so the board shows it as one footer line;
 * and the answer to a session's oldest awaited tool confirmation.
 */
import { ApiError } from '../../api/errors';
import { sessions } from '../../api/sessions';
import { Ctx } from '../../runtime/context';
import { runBulk, type BulkResult } from '../../bulk/execute';
import type { OutStream } from '../../runtime/io';
import type { BoardWrites } from '../../top/open';
import type { WriteAction } from '../../top/sink';
import { sessionActions } from '../sessions/actions';

/** A stream that keeps what is written (the bulk report, its summary line). */
class Captured implements OutStream {
  text = '';
  isTTY = false;
  write(chunk: string | Uint8Array, cb?: (err?: Error | null) => void): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    cb?.();
    return true;
  }
  once(): this {
    return this;
  }
}

/** How many awaited events a confirmation answer looks among (the newest of history). */
const HISTORY_PAGE = 100;

export function boardWrites(ctx: Ctx): BoardWrites {
  return {
    async act(action: WriteAction, ids: readonly string[]) {
      const out = new Captured();
      const err = new Captured();
      // The board asked already (archive) or acts on what the user picked: no prompt, the report as JSON to read back.
      const quiet = new Ctx({ ...ctx.io, stdout: out, stderr: err, signal: undefined }, { ...ctx.globals, output: 'json', quiet: undefined, jq: undefined });
      let failure: unknown;
      try {
        await runBulk(quiet, { targets: ids.map((id) => ({ id })), action: sessionActions(quiet)[action], options: { yes: true } });
      } catch (e) {
        failure = e;
      }
      const results = parseResults(out.text);
      const summary = err.text.trim().split('\n').at(-1) ?? '';
      const failed = results.filter((r) => !r.ok);
      const ok = results.filter((r) => r.ok).map((r) => r.id);
      const gone = failed.filter((r) => r.error?.type === 'resource_not_found_error' || r.error?.status === 404).map((r) => r.id);
      if (!results.length && failure) return { ok, gone, notice: { text: `${action} failed: ${(failure as Error).message}`, level: 'error' } };
      if (!failed.length) return { ok, gone, notice: { text: summary, level: 'info' } };
      const first = failed[0];
      const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
      // The summary first: a long error message is what the footer's one line cuts.
      return { ok, gone, notice: { text: `${summary} · ${action} failed for ${first.id}${more}: ${String(first.error?.message ?? 'error')}`, level: 'error' } };
    },

    async answer(sessionId, result) {
      const c = await ctx.api();
      const s = await sessions.get(c, sessionId);
      const awaited = (s.stop_reason as { event_ids?: unknown } | null)?.event_ids;
      const ids = new Set(Array.isArray(awaited) ? awaited.map(String) : []);
      if (!ids.size) return { text: `${sessionId} awaits no confirmation now`, level: 'info' };
      // The oldest awaited `agent.tool_use` (a custom tool's result cannot be answered with y or n).
      const page = await sessions.historyPage(c, sessionId, { order: 'desc', page_size: HISTORY_PAGE });
      const asked = [...(page.items ?? [])].reverse().find((e) => ids.has(e.id) && e.type === 'agent.tool_use');
      if (!asked) return { text: `${sessionId} awaits a custom tool result, not a confirmation: answer it with svc sessions tool-result`, level: 'error' };
      try {
        // docs/service.md: user.tool_confirmation is {event_id, result}.
        await sessions.sendEvents(c, sessionId, { events: [{ type: 'user.tool_confirmation', data: { event_id: asked.id, result } }] });
      } catch (e) {
        if (e instanceof ApiError) return { text: `${result} failed for ${sessionId}: ${e.message}`, level: 'error' };
        throw e;
      }
      const name = (asked.data as { name?: unknown } | undefined)?.name;
      return { text: `${result === 'allow' ? 'allowed' : 'denied'} ${String(name ?? 'the tool call')} for ${sessionId}`, level: 'info' };
    },
  };
}

function parseResults(text: string): BulkResult[] {
  try {
    const v = JSON.parse(text || '[]') as unknown;
    return Array.isArray(v) ? (v as BulkResult[]) : [];
  } catch {
    return [];
  }
}
