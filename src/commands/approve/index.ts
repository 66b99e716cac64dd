import type { Command } from 'commander';
import { examples, type Flags, type Kit, type Parse } from '../../cli/action';
import { UsageError } from '../../runtime/errors';
import { addFlags, longFlag } from '../../cli/flags';
import { parseLint } from './lint';
import { APPROVE_FLAGS, parseQueue } from './queue';
import { APPROVE_SERVE_FLAGS, parseServe } from './serve';
import { parseTest } from './test';

/** `svc approve`: the queue of awaited confirmations, and a policy that answers the routine ones (docs/behaviour.md "Approvals"). */
export default function build(group: Command, kit: Kit): void {
  addFlags(group, APPROVE_FLAGS);
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

  const serve = addFlags(
    group.command('serve').description('Answer awaited confirmations by a policy, exactly once, beside other approvers and across restarts'),
    APPROVE_SERVE_FLAGS,
  );
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
    const flag = Object.keys(given(group))[0] as keyof typeof APPROVE_FLAGS | undefined;
    if (flag) throw new UsageError(`${longFlag(APPROVE_FLAGS[flag])} does not apply to svc approve ${verb}`);
    return parse(args, f);
  };
}
