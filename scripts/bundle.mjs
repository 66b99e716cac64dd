// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Requires that dependencies make at load but need only on paths svc never or rarely takes, turned into
 * requires on first use; each costs start-up on every command that loads the package (bench/run.mjs).
 * The build fails if a dependency's line ever changes, so an upgrade cannot silently undo this.
 */
const LAZY_REQUIRES = [
  {
    // undici's HTTP/1 client loads its HTTP/2 client, and with it node:http2, node:tls and node:crypto, for
    // connections that are HTTP/2 only when ALPN picks it over TLS.
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    eager: "const connectH2 = require('./client-h2.js')",
    lazy: "const connectH2 = (...a) => require('./client-h2.js')(...a)",
  },
  {
    // commander loads node:child_process for executable subcommands, which svc does not have.
    file: /commander[\\/]lib[\\/]command\.js$/,
    eager: "const childProcess = require('node:child_process');",
    lazy: "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
  },
];

const lazyRequires = {
  name: 'lazy-requires',
  setup(b) {
    for (const { file, eager, lazy } of LAZY_REQUIRES) {
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(eager)) throw new Error(`lazy-requires: "${eager}" not found in ${args.path}`);
        return { contents: source.replace(eager, lazy), loader: 'js' };
      });
    }
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
    plugins: [lazyRequires],
    logLevel,
  });
}
