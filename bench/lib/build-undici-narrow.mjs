// `node bench/lib/build-undici-narrow.mjs OUT`: undici's Agent and api-request alone, bundled into OUT as src/api/http.ts
// loads them, with svc's own stand-in for undici's HTTP/2 client (scripts/bundle.mjs, `undici-h2`), so the floor that
// runs it (bench/floor-undici-narrow.cjs) loads the builtins svc's request loads and no more: no node:http2, node:tls
// or node:crypto.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const entry = "module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js') };";
const h2 = fileURLToPath(new URL('../../scripts/build/stand-ins/undici-h2.cjs', import.meta.url));
const standIn = { name: 'undici-h2', setup: (b) => b.onResolve({ filter: /^\.\/client-h2\.js$/ }, () => ({ path: h2 })) };
const resolveDir = fileURLToPath(new URL('.', import.meta.url));
await build({ stdin: { contents: entry, resolveDir }, bundle: true, platform: 'node', format: 'cjs', outfile: process.argv[2], plugins: [standIn] });
