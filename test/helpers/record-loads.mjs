// Registered with `node --import`: appends every module URL Node loads to $SVC_LOAD_LOG.
import { appendFileSync } from 'node:fs';
import { createRequire, isBuiltin, register } from 'node:module';
import { pathToFileURL } from 'node:url';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.SVC_LOAD_LOG, url + '\\n');
  return next(url, context);
}`),
);

// CommonJS loaded through require() (jq-web, kept outside the bundle) does not pass the hook above.
const Module = createRequire(import.meta.url)('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (!isBuiltin(request)) {
    try {
      appendFileSync(process.env.SVC_LOAD_LOG, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + '\n');
    } catch {
      // unresolvable: the real load reports it
    }
  }
  return load.apply(this, arguments);
};
