/**
 * The single executable's main (scripts/sea.mjs): bin/svc.js's launcher, bundled into one CommonJS file with
 * the command tree, since a SEA's main cannot require files on disk. The only place besides bin/ that exits.
 */
import { holdsExit, main, processIo } from '../cli/main';
import { SVC_VERSION } from '../version';

function start(): void {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      // A child in svc's place (an extension, a `!` alias, the pager) gets a second signal too, and svc waits for its end.
      if (holdsExit(signal)) return;
      process.exit(130);
    }
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that stops early (`svc … | head`) closes the pipe: stop quietly, as shell tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 1));
  }
  const argv = process.argv.slice(2);
  const run = async (): Promise<number> => {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      process.stdout.write(`${SVC_VERSION}\n`);
      return 0;
    }
    return main(argv, processIo(controller.signal));
  };
  void run().then((code) => {
    // Let stdout and stderr drain before exiting, so piped output is never cut short.
    let pending = 2;
    const finish = () => --pending === 0 && process.exit(code);
    process.stdout.write('', finish);
    process.stderr.write('', finish);
  });
}

start();
