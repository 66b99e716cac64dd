/** `svc sessions grep`'s work, loaded when it runs: the selection, then each history searched (search.ts). */
import { pausingClient } from '../../bulk/execute';
import { SharedPause } from '../../bulk/pause';
import type { Ctx } from '../../runtime/context';
import { InterruptedError, UsageError } from '../../runtime/errors';
import { LINE_LIMIT_MS, makeMatcher } from '../../grep/match';
import { followFleet, searchFleet, type Hit } from '../../grep/search';
import { settled } from '../../stats/read';
import { SEARCHED_TYPES } from '../../grep/text';
import { Batch } from '../../output/writer';
import { escapeControls } from '../../output/controls';
import { selectSessions } from '../../selection/selectors';
import { StatsCache } from '../../stats/cache';
import { didYouMean } from '../../text/similar';
import type { Session } from '../../wire/resources';
import type { GrepOptions } from './grep';
import { SELECT_PAGE } from './selectors';

const SGR = { reset: '\x1b[0m', match: '\x1b[1;31m', name: '\x1b[35m', dim: '\x1b[2m' };

/** A hit as `-o ndjson` / `-o json` print it. */
const hitJson = (s: Session, h: Hit) => ({
  session_id: String(s.id),
  ...(typeof s.title === 'string' && s.title !== '' ? { title: s.title } : {}),
  event_id: h.record.id,
  at: h.record.at,
  type: h.record.type,
  ...(h.record.thread !== undefined ? { thread_id: h.record.thread } : {}),
  line: h.line,
  matches: h.ranges,
});

/** The line with its matches painted (on a terminal), control characters escaped. */
function painted(line: string, ranges: Array<[number, number]>, color: boolean): string {
  if (!color) return escapeControls(line);
  let out = '';
  let at = 0;
  for (const [a, b] of ranges) {
    if (a < at) continue;
    out += escapeControls(line.slice(at, a)) + SGR.match + escapeControls(line.slice(a, b)) + SGR.reset;
    at = b;
  }
  return out + escapeControls(line.slice(at));
}

export async function grepSessions(ctx: Ctx, o: GrepOptions): Promise<void> {
  for (const t of o.types ?? [])
    if (!(SEARCHED_TYPES as readonly string[]).includes(t))
      throw new UsageError(`--type: "${t}" carries no searched text${didYouMean(t, SEARCHED_TYPES)}; use one of ${SEARCHED_TYPES.join(', ')}`);
  const matcher = makeMatcher(o.pattern, { ignoreCase: o.ignoreCase, regex: o.regex });
  const explicit = ctx.settings.output?.value;
  if (explicit === 'id' && !o.sessionsOnly) throw new UsageError('-o id: use -l for the IDs of the sessions that match');
  const pause = new SharedPause(ctx.sleep, ctx.now);
  const c = await pausingClient(ctx, pause, false);
  const cache = o.cache ? StatsCache.open(ctx.io.env) : undefined;
  const color = ctx.useColor(ctx.io.stdout);
  const batch = new Batch(ctx.io.stdout);
  const collected: Array<Record<string, unknown>> = [];
  const onHits = async (s: Session, hits: Hit[]) => {
    if (o.sessionsOnly) return batch.add(escapeControls(String(s.id)) + '\n');
    if (explicit === 'ndjson') {
      for (const h of hits) await ctx.out.item(hitJson(s, h));
      return;
    }
    if (explicit !== undefined && explicit !== 'table') return void collected.push(...hits.map((h) => hitJson(s, h)));
    const name = escapeControls(typeof s.title === 'string' && s.title !== '' ? s.title : String(s.id));
    for (const h of hits) {
      const head = `${color ? SGR.name + name + SGR.reset : name}  ${h.record.at}  ${h.record.type}`;
      await batch.add(`${head}  ${painted(h.line, h.ranges, color)}\n`);
    }
  };
  const running: Session[] = [];
  const defer = o.follow ? (s: Session) => !settled(s) && running.push(s) > 0 : undefined;
  let counts;
  try {
    // The one call site of the selection (docs/behaviour.md "Selecting, the same everywhere").
    const listed = selectSessions(c, o.selectors, ctx.now(), { all: true, pageSize: SELECT_PAGE });
    counts = await searchFleet(c, listed, {
      matcher,
      types: o.types && new Set(o.types),
      pause,
      concurrency: o.concurrency,
      cache,
      base: ctx.settings.baseUrl.value,
      onHits,
      defer,
    });
  } finally {
    cache?.close();
  }
  await batch.flush();
  if (running.length) {
    if (ctx.io.stderr.isTTY) await ctx.msg(`following ${running.length} running session${running.length === 1 ? '' : 's'} (Ctrl-C to stop)`);
    const { follow } = await import('../../api/stream/resumable');
    // Each match goes out as it comes: a follower is read by a person or a pipe as it goes.
    const live = async (s: Session, hits: Hit[]) => {
      await onHits(s, hits);
      await batch.flush();
    };
    await followFleet(c, running, { matcher, types: o.types && new Set(o.types), onHits: live, follow, signal: ctx.io.signal });
    if (ctx.io.signal?.aborted) throw new InterruptedError();
  }
  if (explicit !== undefined && explicit !== 'table' && explicit !== 'ndjson' && !o.sessionsOnly) await ctx.out.list(collected, []);
  if (matcher.timedOut)
    await ctx.msg(`${matcher.timedOut} line${matcher.timedOut === 1 ? '' : 's'} ran past -E's limit of ${LINE_LIMIT_MS} ms a line and counted as no match`);
  if (counts.vanished) await ctx.msg(`${counts.vanished} session${counts.vanished === 1 ? '' : 's'} went away before their history was read; left out`);
  if (ctx.io.stderr.isTTY)
    await ctx.msg(`${counts.matched} of ${counts.read + counts.cached} sessions matched: ${counts.read} histories read, ${counts.cached} from the cache`);
}
