// The floor of the package's request on undici (bench/sea.mjs, scripts/build/PERF.md): one GET with undici's Agent and
// api-request alone, as src/api/http.ts loads them, bundled into one file on first use (lib/build-undici-narrow.mjs) and run from a V8 code
// cache written just before `--liftoff-only` is set for llhttp, as svc's compile cache does. Args: URL KEY.
'use strict';
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const [url, key] = process.argv.slice(2);
const dir = join(__dirname, '..', 'node_modules', '.cache', 'floor-undici-narrow-h2-stand-in');
const file = join(dir, 'undici.js');
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true });
  require('node:child_process').execFileSync(process.execPath, [join(__dirname, 'lib', 'build-undici-narrow.mjs'), file], { stdio: 'inherit' });
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
