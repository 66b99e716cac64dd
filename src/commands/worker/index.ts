import { Option, type Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { printsText } from '../../cli/text-output';
import { parseWorkerRun, parseWorkerServe } from './parse';

const WORKDIR_HELP =
  'folder the tools start in (default: the current folder). It confines the file tools (read, write, edit, glob, grep) ' +
  'only: `bash` starts there but can reach anything this user can. Isolate bash with --on-work and a container or another user';
const MAX_IDLE_HELP = 'keep a row this long after its session goes idle, so a follow-up message needs no new claim (e.g. 30s, 5m; default 0)';
const UNRESTRICTED_HELP = 'let the file tools reach paths outside --workdir (bash is never confined)';

function toolOptions(cmd: Command): Command {
  return cmd
    .option('--workdir <dir>', WORKDIR_HELP)
    .option('--max-idle <duration>', MAX_IDLE_HELP)
    .option('--unrestricted-paths', UNRESTRICTED_HELP)
    .addOption(new Option('--log-format <format>', 'stderr log lines').choices(['text', 'json']).default('text'));
}

export default function build(group: Command, kit: Kit): void {
  const run = toolOptions(
    group
      .command('run')
      .description("Serve the work queue of a self-hosted environment: run its sessions' sandbox tool calls here, or hand each row to --on-work CMD")
      .requiredOption('--environment <id>', "self-hosted environment ID (key: SVC_ENVIRONMENT_KEY or the profile's environment_key)")
      .option('--concurrency <n>', 'rows served at once', '1')
      .option('--once', 'serve one row to completion, then exit')
      .option(
        '--on-work <cmd>',
        'run CMD (an executable and its arguments, split on spaces, no shell) for each claimed row; this worker keeps the lease. ' +
          'CMD gets SVC_WORK_ID, SVC_SESSION_ID, SVC_ENVIRONMENT_ID, SVC_WORK_GENERATION, SVC_BASE_URL, SVC_API_VERSION and, on standard input only, ' +
          'the hand-off JSON with the session token (e.g. a script running `svc worker serve` in a container)',
      )
      .option('--worker-id <name>', 'name sent with each poll (default: host name and a random suffix)')
      .option('--heartbeat-interval <seconds>', 'seconds between heartbeats (default: a third of the lease)')
      .option(
        '--metrics-addr <host:port>',
        'serve /metrics (Prometheus text), /healthz and /readyz (503 after 10 s without a successful poll, and while draining) on HOST:PORT; port 0 picks a free one, logged at start',
      )
      .option(
        '--grace <duration>',
        'after SIGTERM, how long the rows in flight may take to finish before they are handed back (their leases lapse and the service re-queues them); ' +
          'after Ctrl-C, how long the wind-down may take (default 30s; with --on-work 95s)',
      )
      .option(
        '--otlp-endpoint <url>',
        "post a span for each tool run here (OTLP/HTTP JSON, to this collector's base URL + /v1/traces), in the session's trace under the hosted tool call",
      ),
  );
  examples(run, [
    'SVC_ENVIRONMENT_KEY=ek_… svc worker run --environment ENV_ID --workdir ./sandbox',
    'svc worker run --environment ENV_ID --on-work ./run-in-container.sh --concurrency 4',
    'svc worker run --environment ENV_ID --once --max-idle 30s',
    'svc worker run --environment ENV_ID --metrics-addr 0.0.0.0:9090 --grace 45s',
  ]);
  printsText(run, 'it logs what it does; --log-format chooses how');
  run.action(kit.verb(parseWorkerRun, async (ctx, o) => (await import('./run')).runWorkerRun(ctx, o)));

  const serve = toolOptions(
    group
      .command('serve')
      .description(
        'Serve one hand-off from `worker run --on-work` (read from standard input) with the built-in tools, e.g. inside a container. ' +
          'Exits 0 when the session is idle (after --max-idle) or the worker asked it to stop, 12 when the session token is refused ' +
          '(the row was re-queued or ended) or standard input closes (the worker is gone)',
      ),
  );
  examples(serve, [
    'docker run --rm -i --network host -e SVC_BASE_URL -e SVC_API_VERSION IMAGE svc worker serve --workdir /work',
    'sudo -n -u sandbox -- /usr/bin/env SVC_BASE_URL="$SVC_BASE_URL" SVC_API_VERSION="$SVC_API_VERSION" svc worker serve --workdir /home/sandbox/work',
  ]);
  printsText(serve, 'it logs what it does; --log-format chooses how');
  serve.action(kit.verb(parseWorkerServe, async (ctx, o) => (await import('./serve')).runWorkerServe(ctx, o)));
}
