// `node scripts/sea-train.cjs record|cache MAIN OUT ARGS…` (scripts/sea.mjs): runs svc's wrapped main as the loader
// does, ARGS one command, and at its exit writes to OUT the keys of the chunks it ran (`record`: the main's exports) or
// V8's code cache of the main (`cache`). The command's V8 flags (src/startup/v8-flags.ts) are not set here: a cache
// made under a flag is refused by a start without it, and this one then holds every function the command ran.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const v8 = require('node:v8');
const { Script } = require('node:vm');

const [mode, main, out, ...args] = process.argv.slice(2);
const script = new Script(readFileSync(main, 'latin1'), { filename: 'svc.js' });
const mod = { exports: {} };
v8.setFlagsFromString = () => {};
process.on('exit', () => writeFileSync(out, mode === 'record' ? Object.keys(mod.exports).join('\n') : script.createCachedData()));
process.argv = [process.argv[0], 'svc', ...args];
script.runInThisContext()(mod.exports, require, mod, 'svc.js', '.');
