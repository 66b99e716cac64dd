// `node scripts/sea-train.cjs record|cache MAIN OUT ARGS…` (scripts/sea.mjs): runs svc's wrapped main as the loader
// does, ARGS one command. `record` writes to OUT the keys of the chunks it ran (the main's exports); `cache` V8's code
// cache of the main, just before the command sets its V8 flags (src/startup/v8-flags.ts): a start without them refuses it.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const v8 = require('node:v8');
const { Script } = require('node:vm');

const [mode, main, out, ...args] = process.argv.slice(2);
const script = new Script(readFileSync(main, 'latin1'), { filename: 'svc.js' });
const mod = { exports: {} };
let written = false;
const write = () => {
  if (!written) writeFileSync(out, mode === 'record' ? Object.keys(mod.exports).join('\n') : script.createCachedData());
  written = true;
};
process.on('exit', write);
const setFlags = v8.setFlagsFromString;
if (mode === 'cache') {
  v8.setFlagsFromString = (flag) => {
    write();
    setFlags(flag);
  };
}
process.argv = [process.argv[0], 'svc', ...args];
script.runInThisContext()(mod.exports, require, mod, 'svc.js', '.');
