import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import type { Ctx } from '../../runtime/context';
import { addFlags } from '../../cli/flags';
import { parseRun, RUN_FLAGS, type RunCommandOptions } from './parse';

/** `svc run`: create or reuse a session, subscribe, send one message, follow until idle, print the final answer. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd.argument('[input]', '- to read the message from standard input'), RUN_FLAGS).action(kit.verb(parseRun, runRunCommand));
  cmd.addHelpText(
    'after',
    `
Exit codes (also of each --parallel line, whose worst is the exit; svc help exit-codes):
  0 the turn ended idle; 11 it failed (session.error, an unfinished stop) or the session was terminated;
  12 it was interrupted, or the message waits behind an interrupt; 13 it waits on a human (a tool confirmation
  or a custom tool result); 124 --timeout; 130 Ctrl-C or SIGTERM (the turn goes on unless --interrupt-on-exit).
  The error line names the session and the command that moves it on.`,
  );
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
