import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { parseThreadTail, runTail, THREAD_TAIL_FLAGS } from '../sessions/tail';

/** `svc threads tail SESSION THREAD`: `sessions tail --thread` under the threads group. */
export function addThreadTail(group: Command, kit: Kit): Command {
  const cmd = group
    .command('tail')
    .description("Follow one thread's events: the live view on a TTY, NDJSON when piped or with --no-live")
    .argument('<session>', 'session ID')
    .argument('<thread>', 'thread ID');
  addFlags(cmd, THREAD_TAIL_FLAGS).action(kit.verb(parseThreadTail, runTail));
  return examples(cmd, [
    'svc threads tail sesn_123 sthr_456',
    'svc threads tail sesn_123 sthr_456 --cursor now --no-live',
    'svc threads tail sesn_123 sthr_456 --until idle | jq -c .type',
  ]);
}
