// Preloaded with `node -r`: at exit, prints to stderr the process's CPU time and the CPU time of the first require of
// the bundle chunk built from package $CHUNK_OF (a source of its source map lies in node_modules/$CHUNK_OF/),
// everything that require loads included; in ms, from process.cpuUsage (finer than GNU time's 10 ms). For
// scripts/build/PERF.md:
//   CHUNK_OF=conf node -r ./scripts/build/chunk-cost.cjs bin/svc.js agents get X
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

const Module = module.constructor;
const load = Module._load;
const pkg = new RegExp(`[\\\\/]node_modules[\\\\/]${process.env.CHUNK_OF}[\\\\/]`);
let chunkMs = 0;
Module._load = function (request, parent, isMain) {
  let file;
  try {
    file = Module._resolveFilename(request, parent, isMain);
  } catch {
    return load.apply(this, arguments);
  }
  if (chunkMs || !/[\\/]dist[\\/]chunks[\\/][^\\/]+\.js$/.test(file) || Module._cache[file]) return load.apply(this, arguments);
  let holds = false;
  try {
    holds = JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources.some((s) => pkg.test(resolve(dirname(file), s)));
  } catch {
    // no map: not a chunk of the build
  }
  if (!holds) return load.apply(this, arguments);
  const start = process.cpuUsage();
  try {
    return load.apply(this, arguments);
  } finally {
    const used = process.cpuUsage(start);
    chunkMs = (used.user + used.system) / 1000;
  }
};
process.on('exit', () => {
  const used = process.cpuUsage();
  writeSync(2, `cpu ${((used.user + used.system) / 1000).toFixed(2)} ms, chunk of ${process.env.CHUNK_OF} ${chunkMs.toFixed(2)} ms\n`);
});
