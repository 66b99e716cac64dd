import type { Command } from 'commander';
import { examples, type Kit, type Opts } from '../../cli/action';
import { idempotencyKey } from '../../cli/verbs/resource';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../errors';
import { parseDeadline } from '../../follow/deadline';

/** `svc run`: create or reuse a session, subscribe, send one message, follow until idle, print the final answer. */
export default function build(cmd: Command, kit: Kit): void {
  cmd
    .argument('[input]', '- to read the message from standard input')
    .option('--agent <agent>', 'agent to run in a new session (required unless --session)')
    .option('--environment <environment>', 'environment of the new session')
    .option('--session <session>', 'send to this existing session instead of creating one')
    .option('--message <text>', 'the message to send')
    .option('--message-file <file>', 'read the message from this file')
    .option('--timeout <duration>', 'give up after this long: 10m, 30s, 1h or seconds (exit 124); default: no limit')
    .option('--deltas', 'with -o ndjson, include agent.delta lines (the live view shows previews by default: d hides them)')
    .option('--no-live', 'no live view even on a terminal')
    .option('--idempotency-key <key>', 'Idempotency-Key of the session create (default: a fresh UUID); with --parallel, KEY:LINE per line')
    .option(
      '--parallel <n>',
      `one new session per line of --message-file, at most N at once (1..${MAX_PARALLEL}); a line is a JSON string or {"message", "title"?, "metadata"?}; prints {"line","session_id","status","ok","reply"|"error"} per line as it settles`,
    )
    .action(
      kit.action(async (ctx, [input], opts) => {
        if (opts.parallel !== undefined) {
          const o = parallelOptions(input, opts);
          const { runParallel } = await import('./parallel');
          return runParallel(ctx, o);
        }
        const { runRun } = await import('./run');
        return runRun(ctx, {
          agent: opts.agent,
          environment: opts.environment,
          session: opts.session,
          message: opts.message,
          messageFile: opts.messageFile,
          stdin: input,
          // The framework gives a verb that declares --timeout its own value (the per-request one is --request-timeout).
          timeoutMs: parseDeadline(opts.timeout),
          deltas: Boolean(opts.deltas),
          noLive: opts.live === false,
          createKey: idempotencyKey(opts),
        });
      }),
    );
  examples(cmd, [
    'svc run --agent ci-bot --parallel 8 --message-file tasks.ndjson --timeout 30m -o ndjson',
    'svc run --agent agent_123 --message "Summarise the open issues" --timeout 10m',
    'echo "Fix the build" | svc run --agent agent_123 - -o ndjson',
    'svc run --agent agent_123 --message "Status?" -o json --jq .reply',
    'svc run --session sesn_123 --message-file prompt.md',
  ]);
}

/** The largest --parallel: each turn in flight holds an event stream open. */
const MAX_PARALLEL = 64;

/** `--parallel` and the flags it needs or refuses, checked before any request (exit 2). */
function parallelOptions(input: string | undefined, opts: Opts) {
  const parallel = parseCount(opts.parallel, '--parallel', 1, MAX_PARALLEL);
  if (opts.messageFile === undefined) throw new UsageError('--parallel takes its messages from --message-file F.ndjson, one per line');
  if (opts.message !== undefined || input !== undefined) throw new UsageError('--parallel reads every message from --message-file: drop --message and -');
  if (opts.session !== undefined) throw new UsageError('--parallel starts one new session per line: it cannot reuse --session');
  if (!opts.agent) throw new UsageError('--agent is required with --parallel');
  if (opts.deltas) throw new UsageError('--deltas works on one run: --parallel prints one result per line');
  return {
    agent: opts.agent as string,
    environment: opts.environment as string | undefined,
    messageFile: opts.messageFile as string,
    parallel,
    timeoutMs: parseDeadline(opts.timeout),
    createKey: idempotencyKey(opts),
  };
}
