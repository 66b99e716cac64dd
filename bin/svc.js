#!/usr/bin/env node
// The launcher: the only place that exits the process. CommonJS (bin/package.json), like the bundle it loads, so
// a command never starts Node's ESM loader (scripts/commonjs-chunks.mjs).
'use strict';

const controller = new AbortController();
/** Set once the command tree is loaded (src/runtime/foreground.ts); before, no child runs. */
let holdsExit = () => false;
const onSignal = (signal) => {
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
  stream.on('error', (err) => process.exit(err.code === 'EPIPE' ? 0 : 1));
}

/** A checkout that was never built (no dist/): one line naming the build, never a stack. */
class NotBuilt extends Error {}
function dist(name) {
  try {
    return require(`../dist/${name}.js`);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && err.message.includes(`'../dist/${name}.js'`)) throw new NotBuilt();
    throw err;
  }
}

async function run(argv) {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    // The bare `svc --version` answers before the command tree (commander and the groups) loads.
    process.stdout.write(`${dist('version').SVC_VERSION}\n`);
    return 0;
  }
  // V8 flags and the compiled-code cache, before any of svc's own code compiles.
  dist('startup').prepareStartup(module.constructor, require('node:path').join(__dirname, '..', 'dist'), process.env);
  const cli = dist('cli');
  holdsExit = cli.holdsExit;
  const { main, processIo } = cli;
  return main(argv, processIo(controller.signal));
}

run(process.argv.slice(2))
  .catch((err) => {
    if (!(err instanceof NotBuilt)) throw err;
    process.stderr.write('svc is not built here: run `npm run build`\n');
    return 1;
  })
  .then((code) => {
    // Let stdout and stderr drain before exiting, so piped output is never cut short.
    let pending = 2;
    const finish = () => --pending === 0 && process.exit(code);
    process.stdout.write('', finish);
    process.stderr.write('', finish);
  });
