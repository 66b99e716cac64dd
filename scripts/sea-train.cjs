// `node scripts/sea-train.cjs record|cache MAIN OUT ARGS…` (scripts/sea.mjs): runs svc's wrapped main (compiled as
// src/sea/loader.ts compiles it) with ARGS as one command. `record` writes to OUT the chunks the command ran (the
// loader's modules, the main's `module.exports`), one key a line: the core scripts/sea-link.mjs puts in the main.
// `cache` writes V8's code cache of the main just before the command sets its heavy-run V8 flags (as undici makes its
// first connection: src/startup/v8-flags.ts), or at its exit: a cache made after a flag switch is refused by a start
// without those flags. Run with no V8 flag and no NODE_OPTIONS, as the executable runs.
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
const [setFlags, exit] = [v8.setFlagsFromString, process.exit];
if (mode === 'cache') {
  v8.setFlagsFromString = (flag) => {
    write();
    setFlags(flag);
  };
}
process.exit = (code) => {
  write();
  exit(code);
};
process.argv = [process.argv[0], 'svc', ...args];
script.runInThisContext()(mod.exports, require, mod, 'svc.js', '.');
