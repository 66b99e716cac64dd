/** `svc sessions trace`'s work, loaded when it runs: the history read page by page into spans, turn by turn. */
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { AgentNames } from '../../selection/agent-names';
import { resolveRef } from '../../selection/names';
import { HISTORY_PAGE } from '../../stats/read';
import { OtlpExporter, otlpTarget } from '../../trace/export';
import { otlpEnvelope, otlpSpan, type OtlpResource } from '../../trace/otlp';
import { spanJson, traceIdOf, traceSpans, type FoldScope, type Span } from '../../trace/spans';
import { treeText, waterfallText } from '../../trace/waterfall';
import { Batch } from '../../output/writer';
import { USER_AGENT } from '../../version';
import type { TraceOptions } from './trace';

export async function traceSession(ctx: Ctx, o: TraceOptions, otlp: boolean): Promise<void> {
  const found = otlpTarget(o.otlpEndpoint, ctx.io.env);
  const target = found && { ...found, network: await ctx.network() };
  const explicit = ctx.settings.output?.value;
  if (explicit === 'id') throw new UsageError('-o id does not apply to svc sessions trace: use -o json, ndjson, otlp or table');
  if (otlp && ctx.settings.output?.source !== 'flag') throw new UsageError('-o otlp is a flag of svc sessions trace only, not a profile setting');
  const c = await ctx.api();
  const s = await resolveRef(c, sessions, 'session', o.session);
  const id = String(s.id);
  const agentId = typeof s.agent_id === 'string' ? s.agent_id : undefined;
  const names = new AgentNames(c);
  if (agentId) await names.load([agentId]);
  const scope: FoldScope = { session: id, thread: o.thread, agentId, agentName: names.nameOf(agentId) };
  const resource: OtlpResource = {
    session: id,
    attrs: agentId ? { 'gen_ai.agent.id': agentId, ...(scope.agentName ? { 'gen_ai.agent.name': scope.agentName } : {}) } : {},
  };
  const turns = traceSpans(sessions.history(c, id, {}, { all: true, pageSize: HISTORY_PAGE }, o.thread), scope);

  if (target) {
    const exporter = new OtlpExporter(target, resource, ctx.sleep, USER_AGENT);
    for await (const spans of turns) await exporter.add(spans);
    await exporter.flush();
    await write(ctx.io.stdout, traceIdOf(id) + '\n');
    return ctx.msg(`sent ${exporter.sent} span${exporter.sent === 1 ? '' : 's'} of trace ${traceIdOf(id)} to ${target.url.replace(/\/\/[^@/]*@/, '//')}`);
  }
  if (otlp) {
    const { traceId, head, tail } = otlpEnvelope(resource);
    const lines = flatten(turns, (span) => JSON.stringify(otlpSpan(traceId, span)));
    if (ctx.settings.jq) return ctx.out.raw(head + (await collect(lines)).join(',') + tail);
    const batch = new Batch(ctx.io.stdout);
    await batch.add(head);
    let first = true;
    for await (const line of lines) {
      await batch.add(first ? line : ',' + line);
      first = false;
    }
    await batch.add(tail + '\n');
    return batch.flush();
  }
  if (explicit !== undefined && explicit !== 'table') return ctx.out.list(flatten(turns, spanJson), []);
  if (explicit === 'table' || ctx.io.stdout.isTTY) {
    const all: Span[] = [];
    for await (const spans of turns) all.push(...spans);
    const width = ctx.io.stdout.columns || Number(ctx.io.env.COLUMNS) || 80;
    const title = `session ${id}${o.thread ? ` thread ${o.thread}` : ''}  trace ${traceIdOf(id)}\n`;
    return ctx.out.text(title + waterfallText(all, { width, color: ctx.useColor(ctx.io.stdout) }));
  }
  const batch = new Batch(ctx.io.stdout);
  for await (const spans of turns) await batch.add(treeText(spans));
  await batch.flush();
}

async function* flatten<T>(turns: AsyncIterable<Span[]>, f: (s: Span) => T): AsyncGenerator<T> {
  for await (const spans of turns) for (const s of spans) yield f(s);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
