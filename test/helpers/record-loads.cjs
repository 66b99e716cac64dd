// Preloaded with `node -r`: appends to $SVC_LOAD_LOG every file svc requires (as a file: URL) and, at exit, every
// builtin Node loaded (as node:NAME, internals too). CommonJS, so the recorder itself starts no ESM loader, and it
// reaches Node's Module class through `module.constructor`, so it loads no builtin that svc might not.
'use strict';
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');

const Module = module.constructor;
const builtins = new Set(Module.builtinModules);
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const name = request.replace(/^node:/, '');
  if (!builtins.has(name)) {
    try {
      appendFileSync(process.env.SVC_LOAD_LOG, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + '\n');
    } catch {
      // unresolvable: the real load reports it
    }
  }
  return load.apply(this, arguments);
};
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice('NativeModule '.length)}`);
  appendFileSync(process.env.SVC_LOAD_LOG, loaded.join('\n') + '\n');
});
