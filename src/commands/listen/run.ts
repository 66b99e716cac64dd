import type { ApiClient } from '../../api/client';
import type { Ctx } from '../../runtime/context';
import { InterruptedError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { readIds } from '../../selection/selectors';
import type { Destination } from '../../listen/destination';
import type { Result } from '../../listen/queue';
import { ListenState } from '../../listen/state';
import { escapeControls } from '../../output/controls';
import { redact } from '../../text/redact';
import { USER_AGENT } from '../../version';
import type { ListenCommand } from './options';

/** Deliveries in flight at once: POSTs are cheap to hold open; commands are processes. */
const FORWARD_CONCURRENCY = 32;
const EXEC_CONCURRENCY = 4;
/** How long deliveries in flight may finish after Ctrl-C before they are abandoned (and sent again after a restart). */
const GRACE_MS = 5_000;

export async function runListen(ctx: Ctx, o: ListenCommand): Promise<void> {
  const { loadSecret } = await import('../../listen/secret');
  if (o.printSecret) {
    const secret = await loadSecret(ctx.io, o.secretFile);
    if (secret.generated) await ctx.msg(`a signing secret was generated in ${secret.path}`);
    return write(ctx.io.stdout, secret.value + '\n');
  }
  const client = await ctx.api();
  const notice = (line: string) => void ctx.msg(redact(line));
  const state = o.state === undefined ? ListenState.memory(ctx.now()) : await ListenState.open(ctx.io, o.state, ctx.now(), notice);
  try {
    await follow(ctx, o, state, client, notice);
  } finally {
    await state.close();
  }
  // SIGTERM is how a service manager stops a listener: a clean stop, exit 0. Ctrl-C stays an interruption (130).
  if (ctx.io.signal?.aborted && ctx.io.signal.reason !== 'SIGTERM') throw new InterruptedError();
}

async function follow(
  ctx: Ctx,
  o: Extract<ListenCommand, { printSecret: false }>,
  state: ListenState,
  client: ApiClient,
  notice: (line: string) => void,
): Promise<void> {
  const { loadSecret } = await import('../../listen/secret');
  let destination: Destination;
  if (o.target.kind === 'forward') {
    const secret = await loadSecret(ctx.io, o.secretFile);
    if (secret.generated) await ctx.msg(`a signing secret was generated in ${secret.path}; give it to the receiver: svc listen --print-secret`);
    const { forwardTo } = await import('../../listen/forward');
    const debug = ctx.settings.debug ? (line: string) => void ctx.msg(redact(`debug: ${line}`)) : undefined;
    destination = forwardTo({
      url: o.target.url,
      secret: secret.value,
      userAgent: USER_AGENT,
      concurrency: FORWARD_CONCURRENCY,
      now: ctx.now,
      debug,
      network: await ctx.network(),
    });
  } else if (o.target.kind === 'otlp') {
    const [{ otlpTarget }, { otlpDestination }] = await Promise.all([import('../../trace/export'), import('../../trace/live')]);
    const target = { ...otlpTarget(o.target.url, ctx.io.env)!, network: await ctx.network() };
    destination = otlpDestination(target, ctx.sleep, USER_AGENT, FORWARD_CONCURRENCY);
  } else {
    const { execCommand } = await import('../../listen/exec');
    destination = execCommand({ command: o.target.command, env: ctx.io.env, cwd: ctx.io.cwd, concurrency: EXEC_CONCURRENCY, stderr: ctx.io.stderr });
  }
  const ids = o.picked.stdin ? await readIds(ctx.io.stdin) : o.picked.ids;
  if (ids && ids.length === 0) return void (await ctx.msg('nothing matched'));

  const stop = new AbortController();
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(), o.timeoutMs);
  const signal = AbortSignal.any([stop.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const print = printer(ctx);
  const what = ids ? `${new Set(ids).size} session(s)` : 'the selected sessions';
  await ctx.msg(`listening to ${what}, delivering to ${redact(destination.name)} (Ctrl-C to stop)`);
  const { listen } = await import('../../listen/listen');
  try {
    const summary = await listen(
      { ids, selectors: o.picked.selectors, chosen: o.chosen, maxStreams: o.maxStreams, intervalMs: o.intervalMs },
      { client, destination, state, signal, graceMs: GRACE_MS, sleep: ctx.sleep, now: ctx.now, random: Math.random, notice, result: print.result },
    );
    await print.done();
    const pending = summary.pending ? `, ${summary.pending} not settled${o.state ? ' (delivered again after a restart with this --state)' : ''}` : '';
    await ctx.msg(`delivered ${summary.delivered}, dropped ${summary.dropped}${pending}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One line per settled delivery on stdout: readable on a terminal, else an NDJSON object (`-o yaml`, `-o id` and
 * `--jq` through the writer). Printed in order, one at a time.
 */
function printer(ctx: Ctx): { result: (r: Result) => void; done: () => Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const format = ctx.format;
  const jq = ctx.settings.jq;
  const line = (r: Result): Promise<void> | void => {
    const d = r.delivery;
    const obj: Record<string, unknown> = { id: d.id, session_id: d.sessionId, event_id: d.eventId, type: d.type, outcome: r.outcome, attempts: r.attempts };
    if (r.status !== undefined) obj.status = r.status;
    if (r.error !== undefined) obj.error = r.error;
    if (jq || format === 'yaml' || format === 'id') return ctx.out.item(obj);
    if (format !== 'table') return write(ctx.io.stdout, JSON.stringify(obj) + '\n');
    const at = new Date(ctx.now()).toISOString().slice(11, 19);
    const how = r.status !== undefined ? `[${r.status}]` : r.outcome === 'delivered' ? '[ok]' : `[${r.error}]`;
    return write(
      ctx.io.stdout,
      escapeControls(
        `${at}  ${r.outcome.padEnd(9)} ${d.type.padEnd(26)} ${d.sessionId}  ${d.eventId}  ${how}${r.attempts > 1 ? ` after ${r.attempts} attempts` : ''}`,
      ) + '\n',
    );
  };
  return {
    result: (r) => {
      chain = chain.then(() => line(r));
    },
    done: () => chain,
  };
}
