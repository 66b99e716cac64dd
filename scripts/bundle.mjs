// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * undici's HTTP/1 client requires its HTTP/2 client at load, and with it node:http2, node:tls and node:crypto:
 * a third of a request command's start-up (bench/run.mjs), for connections that are never HTTP/2 unless ALPN
 * picks it over TLS. Loaded on first use instead; the build fails if undici's line ever changes.
 */
const lazyHttp2 = {
  name: 'lazy-undici-http2',
  setup(b) {
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
      const eager = "const connectH2 = require('./client-h2.js')";
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(eager)) throw new Error(`lazy-undici-http2: "${eager}" not found in ${args.path}`);
      return { contents: source.replace(eager, "const connectH2 = (...a) => require('./client-h2.js')(...a)"), loader: 'js' };
    });
  },
};

/** Bundles src/cli.ts, and src/version.ts for the launcher's `--version` fast path, into `outdir` (emptied first). */
export async function bundle(outdir, logLevel = 'warning') {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { cli: `${root}src/cli.ts`, version: `${root}src/version.ts` },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    // jq-wasm loads its .wasm beside its own file; react-devtools-core is optional in ink.
    external: ['jq-wasm', 'react-devtools-core'],
    // React and Ink ship development builds behind NODE_ENV: several times the memory and CPU of production.
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
    plugins: [lazyHttp2],
    logLevel,
  });
}
