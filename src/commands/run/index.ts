import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { idempotencyKey } from '../../cli/verbs/resource';
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
    .option('--idempotency-key <key>', 'Idempotency-Key of the session create (default: a fresh UUID)')
    .action(
      kit.action(async (ctx, [input], opts) => {
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
    'svc run --agent agent_123 --message "Summarise the open issues" --timeout 10m',
    'echo "Fix the build" | svc run --agent agent_123 - -o ndjson',
    'svc run --agent agent_123 --message "Status?" -o json --jq .reply',
    'svc run --session sesn_123 --message-file prompt.md',
  ]);
}
