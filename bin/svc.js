#!/usr/bin/env node
// The package's launcher: src/startup/launch.ts (built as dist/launch.js) does the work, shared with the single
// executable. CommonJS (bin/package.json), like the bundle it loads, so a command never starts Node's ESM loader
// (scripts/commonjs-chunks.mjs).
'use strict';

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
function notBuilt(err) {
  if (!(err instanceof NotBuilt)) return undefined;
  process.stderr.write('svc is not built here: run `npm run build`\n');
  return 1;
}

let launcher;
try {
  launcher = dist('launch');
} catch (err) {
  const code = notBuilt(err);
  if (code === undefined) throw err;
  process.exitCode = code;
}
launcher?.launch({
  tree() {
    // The compiled-code cache, before any of svc's own code compiles.
    dist('startup').prepareStartup(module.constructor, require('node:path').join(__dirname, '..', 'dist'), process.env);
    return dist('cli');
  },
  failed: notBuilt,
});
