// Preloaded with `node -r`: appends to $SVC_LOAD_LOG every file svc requires (as a file: URL) and, at exit, the files
// in Node's module cache it did not see required (the compile cache loads chunks past Module._load) and every builtin
// Node loaded (as node:NAME, internals too). CommonJS, so the recorder itself starts no ESM loader, and it
// reaches Node's Module class through `module.constructor`, so it loads no builtin that svc might not.
'use strict';
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');

const Module = module.constructor;
const builtins = new Set(Module.builtinModules);
const load = Module._load;
const seen = new Set();
Module._load = function (request, parent, isMain) {
  const name = request.replace(/^node:/, '');
  if (!builtins.has(name)) {
    try {
      const file = Module._resolveFilename(request, parent, isMain);
      seen.add(file);
      appendFileSync(process.env.SVC_LOAD_LOG, pathToFileURL(file).href + '\n');
    } catch {
      // unresolvable: the real load reports it
    }
  }
  return load.apply(this, arguments);
};
process.on('exit', () => {
  const unseen = Object.keys(Module._cache).filter((f) => !seen.has(f));
  if (unseen.length > 0) appendFileSync(process.env.SVC_LOAD_LOG, unseen.map((f) => pathToFileURL(f).href).join('\n') + '\n');
  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice('NativeModule '.length)}`);
  appendFileSync(process.env.SVC_LOAD_LOG, loaded.join('\n') + '\n');
});
