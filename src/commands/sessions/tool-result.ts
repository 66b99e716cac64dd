import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { readData } from '../../input/data';
import { examples, type Kit } from '../../cli/action';
import { printAccepted } from './accepted';
import { addFlags, flagTable, oneOf, type FlagsOf } from '../../cli/flags';

/** `svc sessions tool-result`'s flags. */
export const SESSION_TOOL_RESULT_FLAGS = flagTable({
  text: { flags: '--text <text>', description: 'the result as text' },
  data: { flags: '--data <json|@file|@->', description: 'the result content: an array of blocks, or {content, is_error?}' },
  error: { flags: '--error', description: 'mark the result as an error' },
});

export function addToolResult(group: Command, kit: Kit): void {
  const cmd = group
    .command('tool-result')
    .argument('<session>', 'session ID')
    .argument('<event_id>', 'ID of the agent.custom_tool_use to answer')
    .description('Answer a custom tool call (user.custom_tool_result)');
  addFlags(cmd, SESSION_TOOL_RESULT_FLAGS);
  examples(cmd, ['svc sessions tool-result SESSION_ID EVENT_ID --text "42 rows"', 'svc sessions tool-result SESSION_ID EVENT_ID --data @result.json --error']);
  cmd.action(kit.verb(parseToolResult, runToolResult));
}

/** `svc sessions tool-result SESSION EVENT_ID --text TEXT|--data SOURCE [--error]`. */
export interface ToolResultOptions {
  session: string;
  eventId: string;
  /** The result as text (--text), or where to read its content (--data: JSON, @file or @-). */
  from: 'text' | 'data';
  value: string;
  error: boolean;
}

export function parseToolResult([session, eventId]: string[], flags: FlagsOf<typeof SESSION_TOOL_RESULT_FLAGS>): ToolResultOptions {
  const from = oneOf(flags, { '--text': 'text', '--data': 'data' }, true) === '--text' ? 'text' : 'data';
  // oneOf(…, true) has checked that the flag chosen was given: the fallback is never used.
  return { session, eventId, from, value: flags[from] ?? '', error: Boolean(flags.error) };
}

/**
 * The application answers `agent.custom_tool_use` with `user.custom_tool_result`; `user.tool_result` is what a
 * self-hosted worker writes back with its session work token for sandbox tools (spec: Events), so it is not sent here.
 */
export async function runToolResult(ctx: Ctx, o: ToolResultOptions): Promise<void> {
  const given =
    o.from === 'text' ? { content: [{ type: 'text', text: o.value }] } : contentFrom(await readData(o.value, ctx.io.stdin, ctx.io.cwd, ctx.io.signal));
  // Assumption (docs/service.md): user.custom_tool_result data is {event_id, content: [blocks], is_error?}.
  const data = { ...given, event_id: o.eventId, ...(o.error ? { is_error: true } : {}) };
  await printAccepted(ctx, await sessions.sendEvents(await ctx.api(), o.session, { events: [{ type: 'user.custom_tool_result', data }] }));
}

function contentFrom(v: unknown): { content: unknown[]; is_error?: boolean } {
  if (Array.isArray(v)) return { content: v };
  if (v && typeof v === 'object' && Array.isArray((v as { content?: unknown }).content)) return v as { content: unknown[] };
  throw new UsageError('--data must be an array of content blocks or {content: [...], is_error?}');
}
