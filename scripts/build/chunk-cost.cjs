// Preloaded with `node -r`: at exit, prints to stderr the process's CPU time and the CPU time of the first require of
// the bundle chunk built from package $CHUNK_OF (a source of its source map lies in node_modules/$CHUNK_OF/),
// everything that require loads included; in ms, from process.cpuUsage (finer than GNU time's 10 ms). For
// scripts/build/PERF.md:
//   CHUNK_OF=conf node -r ./scripts/build/chunk-cost.cjs bin/svc.js agents get X
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

const Module = module.constructor;
const pkg = new RegExp(`[\\\\/]node_modules[\\\\/]${process.env.CHUNK_OF}[\\\\/]`);
let chunkMs = 0;
/** Times the first chunk built from $CHUNK_OF as it compiles and runs (its own requires included). */
const timed = (compile) =>
  function (content, filename) {
    if (chunkMs || !/[\\/]dist[\\/]chunks[\\/][^\\/]+\.js$/.test(filename)) return compile.call(this, content, filename);
    let holds = false;
    try {
      holds = JSON.parse(readFileSync(`${filename}.map`, 'utf8')).sources.some((s) => pkg.test(resolve(dirname(filename), s)));
    } catch {
      // no map: not a chunk of the build
    }
    if (!holds) return compile.call(this, content, filename);
    const start = process.cpuUsage();
    try {
      return compile.call(this, content, filename);
    } finally {
      const used = process.cpuUsage(start);
      chunkMs = (used.user + used.system) / 1000 || 0.001;
    }
  };
// Module._compile is where every chunk passes, Node's loader or the compile cache's (which replaces it, and loads chunks
// past Module._load): the replacement is wrapped as it is set.
let compile = timed(Module.prototype._compile);
Object.defineProperty(Module.prototype, '_compile', {
  get: () => compile,
  set: (f) => {
    compile = timed(f);
  },
  configurable: true,
});
process.on('exit', () => {
  const used = process.cpuUsage();
  writeSync(2, `cpu ${((used.user + used.system) / 1000).toFixed(2)} ms, chunk of ${process.env.CHUNK_OF} ${chunkMs.toFixed(2)} ms\n`);
});
