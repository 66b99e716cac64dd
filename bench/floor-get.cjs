// The floor of a request command (bench/sea.mjs): one GET with node:http, the body to stdout. CommonJS: no ESM loader.
const [url, key] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta' };
require('node:http').get(url, { headers }, (res) => res.pipe(process.stdout));
