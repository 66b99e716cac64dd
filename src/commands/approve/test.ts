/**
 * `svc approve test FILE SESSION…`: for every tool confirmation in those sessions' histories, the rule that would
 * have decided it (or none), beside how it was answered. Nothing is sent.
 */
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { answeredCall } from '../../listen/events';
import { payloadOf } from '../../wire/events';
import { canonicalEvent } from '../../wire/shapes';
import { loadPolicy } from './policy-file';

export interface TestOptions {
  file: string;
  sessions: string[];
}

export function parseTest(args: string[]): TestOptions {
  const [file, ...ids] = args;
  if (!file || ids.length === 0) throw new UsageError('svc approve test takes a policy file and one or more session IDs');
  return { file, sessions: [...new Set(ids)] };
}

interface Row {
  session_id: string;
  event_id: string;
  tool: string;
  thread: 'main' | 'child';
  rule: string | null;
  decision: string;
  /** How it was answered: allow, deny, another reply (an interrupt's error result), or still awaited. */
  answered: string;
}

export async function runTest(ctx: Ctx, o: TestOptions): Promise<void> {
  const policy = await loadPolicy(ctx, o.file);
  const [{ Facts, askedOf }, { decide }] = await Promise.all([import('../../approve/facts'), import('../../approve/match')]);
  const client = await ctx.api();
  const facts = new Facts(client, policy);
  const rows: Row[] = [];
  for (const id of o.sessions) {
    const s = await sessions.get(client, id);
    const asked: NonNullable<ReturnType<typeof askedOf>>[] = [];
    const answers = new Map<string, string>();
    for await (const raw of sessions.history(client, id, {}, { all: true, pageSize: 1000 })) {
      const e = canonicalEvent(raw);
      const a = askedOf(e);
      if (a) asked.push(a);
      const call = answeredCall(e);
      if (call !== undefined && !answers.has(call)) answers.set(call, String(payloadOf(e, 'user.tool_confirmation')?.result ?? e.type));
    }
    for (const a of asked) {
      const v = decide(policy, await facts.call(s, a));
      rows.push({
        session_id: id,
        event_id: a.eventId,
        tool: a.tool,
        thread: a.threadId === undefined ? 'main' : 'child',
        rule: v.kind === 'decided' ? v.rule : null,
        decision: v.kind === 'decided' ? v.decision : 'none',
        answered: answers.get(a.eventId) ?? 'awaited',
      });
    }
  }
  if (rows.length === 0) await ctx.msg('no tool confirmation in these histories');
  await ctx.out.list(rows, [
    { header: 'SESSION', get: (r) => r.session_id },
    { header: 'EVENT', get: (r) => r.event_id },
    { header: 'TOOL', get: (r) => r.tool },
    { header: 'THREAD', get: (r) => r.thread },
    { header: 'RULE', get: (r) => r.rule ?? '-' },
    { header: 'DECISION', get: (r) => r.decision },
    { header: 'ANSWERED', get: (r) => r.answered },
  ]);
}
