import { Option, type Command } from 'commander';
import { examples, type Kit } from '../kit';

export default function build(group: Command, kit: Kit): void {
  const run = group
    .command('run')
    .description('Serve the work queue of a self-hosted environment: run its sessions\' sandbox tool calls here')
    .requiredOption('--environment <id>', 'self-hosted environment ID (key: SVC_ENVIRONMENT_KEY or the profile\'s environment_key)')
    .option('--concurrency <n>', 'rows served at once', '1')
    .option('--workdir <dir>', 'folder the tools run in and are confined to (default: the current folder)')
    .option('--once', 'serve one row to completion, then exit')
    .option('--worker-id <name>', 'name sent with each poll (default: host name and a random suffix)')
    .option('--heartbeat-interval <seconds>', 'seconds between heartbeats (default: a third of the lease)')
    .addOption(new Option('--log-format <format>', 'stderr log lines').choices(['text', 'json']).default('text'));
  examples(run, [
    'SVC_ENVIRONMENT_KEY=ek_… svc worker run --environment ENV_ID --workdir ./sandbox',
    'svc worker run --environment ENV_ID --concurrency 4 --log-format json',
    'svc worker run --environment ENV_ID --once',
  ]);
  run.action(kit.action(async (ctx, args, opts) => (await import('./run')).run(ctx, args, opts)));
}
