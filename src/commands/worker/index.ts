import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { printsText } from '../../cli/text-output';
import { parseWorkerRun, parseWorkerServe, WORKER_RUN_FLAGS, WORKER_SERVE_FLAGS } from './parse';

export default function build(group: Command, kit: Kit): void {
  const run = addFlags(
    group
      .command('run')
      .description("Serve the work queue of a self-hosted environment: run its sessions' sandbox tool calls here, or hand each row to --on-work CMD"),
    WORKER_RUN_FLAGS,
  );
  examples(run, [
    'SVC_ENVIRONMENT_KEY=ek_… svc worker run --environment ENV_ID --workdir ./sandbox',
    'svc worker run --environment ENV_ID --on-work ./run-in-container.sh --concurrency 4',
    'svc worker run --environment ENV_ID --once --max-idle 30s',
    'svc worker run --environment ENV_ID --metrics-addr 0.0.0.0:9090 --grace 45s',
  ]);
  printsText(run, 'it logs what it does; --log-format chooses how');
  run.action(kit.verb(parseWorkerRun, async (ctx, o) => (await import('./run')).runWorkerRun(ctx, o)));

  const serve = addFlags(
    group
      .command('serve')
      .description(
        'Serve one hand-off from `worker run --on-work` (read from standard input) with the built-in tools, e.g. inside a container. ' +
          'Exits 0 when the session is idle (after --max-idle) or the worker asked it to stop, 12 when the session token is refused ' +
          '(the row was re-queued or ended) or standard input closes (the worker is gone)',
      ),
    WORKER_SERVE_FLAGS,
  );
  examples(serve, [
    'docker run --rm -i --network host -e SVC_BASE_URL -e SVC_API_VERSION IMAGE svc worker serve --workdir /work',
    'sudo -n -u sandbox -- /usr/bin/env SVC_BASE_URL="$SVC_BASE_URL" SVC_API_VERSION="$SVC_API_VERSION" svc worker serve --workdir /home/sandbox/work',
  ]);
  printsText(serve, 'it logs what it does; --log-format chooses how');
  serve.action(kit.verb(parseWorkerServe, async (ctx, o) => (await import('./serve')).runWorkerServe(ctx, o)));
}
