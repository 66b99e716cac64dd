import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { pickSession } from './pick';

/** `svc sessions trace SESSION [--thread ID] [--otlp-endpoint [URL]]`; `-o otlp` is read from the global `-o`. */
export interface TraceOptions {
  session: string;
  thread?: string;
  /** `true`: the flag without a URL (the OTEL_ environment variables say where). */
  otlpEndpoint?: string | true;
}

/** `svc sessions trace`'s flags. */
export const SESSION_TRACE_FLAGS = flagTable({
  thread: { flags: '--thread <thread_id>', description: "only this thread's history" },
  otlpEndpoint: {
    flags: '--otlp-endpoint [url]',
    description: "post the spans (OTLP/HTTP JSON) to this collector's base URL + /v1/traces; without a URL, where OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT says",
  },
});

export function parseTrace([session]: string[], flags: FlagsOf<typeof SESSION_TRACE_FLAGS>): TraceOptions {
  const thread = flags.thread;
  if (thread !== undefined && thread.trim() === '') throw new UsageError('--thread takes a thread ID');
  const endpoint = flags.otlpEndpoint;
  if (endpoint === '') throw new UsageError("--otlp-endpoint takes the collector's base URL");
  return { session, thread, otlpEndpoint: endpoint };
}

export async function runTrace(ctx: Ctx, o: TraceOptions): Promise<void> {
  // `-o otlp` is this verb's own format: taken out before the settings read (and refuse) the global -o.
  const otlp = ctx.globals.output === 'otlp';
  if (otlp) ctx.globals.output = 'json';
  return (await import('./trace-run')).traceSession(ctx, o, otlp);
}

/** `svc sessions trace`: where a session spent its time, as spans. */
export function addTrace(group: Command, kit: Kit): void {
  const cmd = group
    .command('trace')
    .argument('<session>', 'session ID or title')
    .description('The session as a tree of spans: turns, model requests, tool calls, human waits, child threads (a waterfall on a terminal)');
  addFlags(pickSession(cmd), SESSION_TRACE_FLAGS);
  examples(cmd, [
    'svc sessions trace SESSION_ID',
    'svc sessions trace SESSION_ID -o json --jq \'map(select(.kind == "tool")) | sort_by(-.duration_ms) | .[:5]\'',
    'svc sessions trace SESSION_ID -o otlp | curl -s -H content-type:application/json --data-binary @- http://localhost:4318/v1/traces',
    'svc sessions trace SESSION_ID --otlp-endpoint http://localhost:4318',
  ]);
  cmd.action(kit.verb(parseTrace, runTrace));
}
