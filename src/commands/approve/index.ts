import type { Command } from 'commander';
import { examples, type Flags, type Kit, type Parse } from '../../cli/action';
import { UsageError } from '../../runtime/errors';
import { addSelectorFlags } from '../sessions/selectors';
import { parseLint } from './lint';
import { parseQueue } from './queue';
import { parseServe } from './serve';
import { parseTest } from './test';

/** `svc approve`: the queue of awaited confirmations, and a policy that answers the routine ones (docs/behaviour.md "Approvals"). */
export default function build(group: Command, kit: Kit): void {
  addSelectorFlags(group);
  group
    .option('--list', 'print the queue once (a table, or -o json) instead of the live view')
    .option('--readonly', 'show the queue without the keys that answer (y, n)')
    .option('--interval <duration>', 'how often the queue is read again (default 2s)');
  examples(group, [
    'svc approve',
    'svc approve --agent reviewer --readonly',
    'svc approve --list -o json',
    'svc approve lint policy.yaml',
    'svc approve test policy.yaml sesn_123',
    'svc approve serve --policy policy.yaml -l team=infra',
  ]);
  group.action(kit.verb(parseQueue, async (ctx, o) => (await import('./queue')).runQueue(ctx, o)));

  const lint = group.command('lint').argument('<file>', 'the policy file (YAML)').description('Check a policy file: every problem with its line and column');
  examples(lint, ['svc approve lint policy.yaml']);
  lint.action(kit.verb(alone(group, 'lint', parseLint), async (ctx, o) => (await import('./lint')).runLint(ctx, o)));

  const test = group
    .command('test')
    .argument('<file>', 'the policy file (YAML)')
    .argument('<sessions...>', 'session IDs')
    .description('Show, for every tool confirmation in these sessions, the rule that would have decided it (nothing is sent)');
  examples(test, ['svc approve test policy.yaml sesn_123 sesn_456', 'svc approve test policy.yaml sesn_123 -o json']);
  test.action(kit.verb(alone(group, 'test', parseTest), async (ctx, o) => (await import('./test')).runTest(ctx, o)));

  const serve = group
    .command('serve')
    .description('Answer awaited confirmations by a policy, exactly once, beside other approvers and across restarts')
    .option('--policy <file>', 'the policy file (YAML; checked first: one that does not check is exit 2)')
    .option('--state <file>', 'where each session stands (one approver per file); a restart answers nothing twice and misses nothing')
    .option('--audit <file>', 'append one NDJSON line per decision to FILE (default: standard output)')
    .option('--metrics-addr <host:port>', 'serve /metrics (svc_approve_decisions_total{decision,rule}) and /healthz')
    .option('--escalate-to <url>', 'POST what the policy leaves to a human to URL, signed as svc listen signs')
    .option('--secret-file <file>', 'with --escalate-to: the signing secret (default: the one svc listen uses)')
    .option('--escalate-exec <cmd>', 'run CMD once for each call left to a human, the JSON on its standard input')
    .option('--deny-after <duration>', 'deny, with a message, a call left to a human that no one answered in this long')
    .option('--max-streams <n>', 'streams open at once; sessions beyond are polled (default 64)')
    .option('--interval <duration>', 'how often the fleet and the sessions without a stream are polled (default 2s)')
    .option('--timeout <duration>', 'stop after this long (exit 0); default: until Ctrl-C');
  addSelectorFlags(serve);
  examples(serve, [
    'svc approve serve --policy policy.yaml --state approve-state.json --audit audit.ndjson',
    'svc approve serve --policy policy.yaml --agent reviewer --escalate-to https://hooks.example.com/approve --deny-after 30m',
  ]);
  serve.action(
    kit.verb(
      (args, f) => parseServe(args, { ...given(group), ...f }),
      async (ctx, o) => (await import('./serve')).runServe(ctx, o),
    ),
  );
}

/**
 * The flags `svc approve` itself declares (the selectors, --interval) are taken by it wherever they stand on the line
 * (commander reads a group's options after its subcommand too): those given after a subcommand are handed to it.
 */
function given(group: Command): Flags {
  return Object.fromEntries(Object.entries(group.opts()).filter(([, v]) => v !== undefined));
}

/** A subcommand that takes none of the queue's flags: one given is exit 2, never ignored. */
function alone<O>(group: Command, verb: string, parse: Parse<O>): Parse<O> {
  return (args, f) => {
    const flag = Object.keys(given(group))[0];
    if (flag) throw new UsageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply to svc approve ${verb}`);
    return parse(args, f);
  };
}
