// `node scripts/sea-train.cjs MAIN CACHE ARGS…` (scripts/sea.mjs): runs svc's wrapped main (src/sea/loader.ts
// compiles it the same way) with ARGS as one command, and when the command exits writes V8's code cache of it to
// CACHE: the cache then holds every function the command compiled. Run by the executable's own Node with no V8 flag
// and no NODE_OPTIONS, as the executable runs, or V8 refuses the cache.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');

const [main, cache, ...args] = process.argv.slice(2);
const script = new Script(readFileSync(main, 'latin1'), { filename: 'svc.js' });
const exit = process.exit.bind(process);
process.exit = (code) => {
  writeFileSync(cache, script.createCachedData());
  exit(code);
};
process.argv = [process.argv[0], 'svc', ...args];
const mod = { exports: {} };
script.runInThisContext()(mod.exports, require, mod, 'svc.js', '.');
