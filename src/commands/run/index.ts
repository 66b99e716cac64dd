import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import type { Ctx } from '../../runtime/context';
import { addMetadataFlag } from '../../cli/verbs/body';
import { MAX_PARALLEL, parseRun, type RunCommandOptions } from './parse';

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
    .option('--continue', 'with --session: if the session is interrupted, send the message, then resume it (else exit 12, nothing sent)')
    .option('--interrupt-on-exit', 'on Ctrl-C or SIGTERM, interrupt the session before exiting (for CI cancels); else the turn goes on')
    .option('--title <title>', 'title of the new session (with --parallel, for lines without their own)')
    .option('--idempotency-key <key>', 'Idempotency-Key of the session create (default: a fresh UUID); with --parallel, KEY:LINE per line')
    .option(
      '--parallel <n>',
      `one new session per line of --message-file, at most N at once (1..${MAX_PARALLEL}); a line is a JSON string or {"message", "title"?, "metadata"?}; prints {"line","session_id","status","ok","exit","reply"|"error"} per line as it settles`,
    )
    .action(kit.verb(parseRun, runRunCommand));
  cmd.addHelpText(
    'after',
    `
Exit codes (also of each --parallel line, whose worst is the exit; svc help exit-codes):
  0 the turn ended idle; 11 it failed (session.error, an unfinished stop) or the session was terminated;
  12 it was interrupted, or the message waits behind an interrupt; 13 it waits on a human (a tool confirmation
  or a custom tool result); 124 --timeout; 130 Ctrl-C or SIGTERM (the turn goes on unless --interrupt-on-exit).
  The error line names the session and the command that moves it on.`,
  );
  addMetadataFlag(cmd, false);
  examples(cmd, [
    'svc run --agent ci-bot --parallel 8 --message-file tasks.ndjson --timeout 30m -o ndjson',
    'svc run --agent agent_123 --message "Summarise the open issues" --timeout 10m',
    'echo "Fix the build" | svc run --agent agent_123 - -o ndjson',
    'svc run --agent agent_123 --message "Status?" -o json --jq .reply',
    'svc run --session sesn_123 --message-file prompt.md',
    'svc run --session sesn_123 --continue --message "Carry on"',
    'svc run --agent agent_123 --message "Fix the build" --interrupt-on-exit --timeout 30m',
  ]);
}

/** One run or `--parallel`; each path is loaded only when taken. */
export async function runRunCommand(ctx: Ctx, o: RunCommandOptions): Promise<void> {
  if (o.mode === 'parallel') return (await import('./parallel')).runParallel(ctx, o);
  return (await import('./run')).runRun(ctx, o);
}
