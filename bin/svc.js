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

const { main, processIo } = await import('../dist/cli.js');
const code = await main(process.argv.slice(2), processIo(controller.signal));
// Let stdout and stderr drain before exiting, so piped output is never cut short.
let pending = 2;
const finish = () => --pending === 0 && process.exit(code);
process.stdout.write('', finish);
process.stderr.write('', finish);
