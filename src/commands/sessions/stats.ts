import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { resolveRef } from '../../selection/names';
import { pickSession } from './pick';

/** `svc sessions stats SESSION [--thread ID] [--no-cache]`. */
export interface SessionStatsOptions {
  session: string;
  thread?: string;
  cache: boolean;
}

/** `svc sessions stats`'s flags. */
export const SESSION_STATS_FLAGS = flagTable({
  thread: { flags: '--thread <thread_id>', description: "only this thread's events (the session's figures include its threads)" },
  cache: { flags: '--no-cache', description: 'read the whole history even when the cached figures of a settled session are current' },
});

export function parseSessionStats([session]: string[], flags: FlagsOf<typeof SESSION_STATS_FLAGS>): SessionStatsOptions {
  const thread = flags.thread;
  if (thread !== undefined && thread.trim() === '') throw new UsageError('--thread takes a thread ID');
  return { session, thread, cache: flags.cache !== false };
}

export async function runSessionStats(ctx: Ctx, o: SessionStatsOptions): Promise<void> {
  const c = await ctx.api();
  const [{ StatsCache }, { settled, tallyHistory }, { figures }] = await Promise.all([
    import('../../stats/cache'),
    import('../../stats/read'),
    import('../../stats/report'),
  ]);
  const s = await resolveRef(c, sessions, 'session', o.session);
  const id = String(s.id);
  const marker = typeof s.updated_at === 'string' && settled(s) ? s.updated_at : undefined;
  const cache = o.cache && marker !== undefined ? StatsCache.open(ctx.io.env) : undefined;
  const key = { base: ctx.settings.baseUrl.value, session: id, thread: o.thread };
  try {
    let tally = cache?.get(key, marker!);
    if (!tally) {
      tally = await tallyHistory(c, id, o.thread);
      cache?.put(key, marker!, tally);
    }
    const head = { session_id: id, ...(o.thread !== undefined ? { thread_id: o.thread } : {}) };
    const f = figures(tally);
    if (ctx.format !== 'table' || ctx.settings.jq) return await ctx.out.item({ ...head, ...f });
    const { sessionText } = await import('../../stats/text');
    const { write } = await import('../../runtime/io');
    const tty = Boolean(ctx.io.stdout.isTTY);
    await write(ctx.io.stdout, sessionText(head, f, { width: tty ? ctx.io.stdout.columns : undefined, header: (h) => h }, tty));
  } finally {
    cache?.close();
  }
}

/** `svc sessions stats`: what one session did, from its whole history. */
export function addStats(group: Command, kit: Kit): void {
  const cmd = group
    .command('stats')
    .argument('<session>', 'session ID')
    .description('What a session did, from its history: turns, model requests, tools, errors, waits, time to first token');
  addFlags(pickSession(cmd), SESSION_STATS_FLAGS);
  examples(cmd, ['svc sessions stats SESSION_ID', 'svc sessions stats SESSION_ID -o json --jq .tools', 'svc sessions stats SESSION_ID --thread THREAD_ID']);
  cmd.action(kit.verb(parseSessionStats, runSessionStats));
}
