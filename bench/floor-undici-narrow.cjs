// The floor of the package's request on undici (bench/sea.mjs, scripts/build/PERF.md): one GET with undici's Agent and
// api-request alone, as src/api/http.ts loads them, bundled into one file (esbuild, on first use) and run from a V8 code
// cache written just before `--liftoff-only` is set for llhttp, as svc's compile cache does. Args: URL KEY.
'use strict';
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const [url, key] = process.argv.slice(2);
const dir = join(__dirname, '..', 'node_modules', '.cache', 'floor-undici-narrow');
const file = join(dir, 'undici.js');
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true });
  const entry = "module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js') };";
  require('esbuild').buildSync({ stdin: { contents: entry, resolveDir: __dirname }, bundle: true, platform: 'node', format: 'cjs', outfile: file });
}
let cachedData;
try {
  cachedData = readFileSync(`${file}.cache`);
} catch {
  // the first run writes it
}
const script = new Script(module.constructor.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
const mod = { exports: {} };
script.runInThisContext()(mod.exports, require, mod, file, dir);
if (cachedData === undefined || script.cachedDataRejected) writeFileSync(`${file}.cache`, script.createCachedData());
require('node:v8').setFlagsFromString('--liftoff-only');
const { origin, pathname } = new URL(url);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta' };
mod.exports.request.call(new mod.exports.Agent(), { origin, path: pathname, method: 'GET', headers }).then(({ body }) => body.pipe(process.stdout));
