// The floor of a request command on undici (bench/sea.mjs): one GET with undici's `request`, the body to stdout.
const [url, key] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta' };
require('undici')
  .request(url, { headers })
  .then(({ body }) => body.pipe(process.stdout));
