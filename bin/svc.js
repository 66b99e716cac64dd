#!/usr/bin/env node
// The launcher: the only place that exits the process.
import module from 'node:module';

module.enableCompileCache?.();
const controller = new AbortController();
const onSignal = (signal) => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// A reader that stops early (`svc … | head`) closes the pipe: stop quietly, as shell tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => process.exit(err.code === 'EPIPE' ? 0 : 1));
}

const argv = process.argv.slice(2);
let code;
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The bare `svc --version` answers before the command tree (commander and the groups) loads.
  const { SVC_VERSION } = await import('../dist/version.js');
  process.stdout.write(`${SVC_VERSION}\n`);
  code = 0;
} else {
  const { main, processIo } = await import('../dist/cli.js');
  code = await main(argv, processIo(controller.signal));
}
// Let stdout and stderr drain before exiting, so piped output is never cut short.
let pending = 2;
const finish = () => --pending === 0 && process.exit(code);
process.stdout.write('', finish);
process.stderr.write('', finish);
