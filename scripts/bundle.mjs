// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Work dependencies do at load for paths svc never or rarely takes, deferred to first use. Each costs start-up on
 * every command that loads the package (bench/run.mjs). The build fails if a dependency's text ever changes, so an
 * upgrade cannot silently undo one.
 */
const SOURCE_PATCHES = [
  {
    // undici's HTTP/1 client loads its HTTP/2 client, and with it node:http2, node:tls and node:crypto, for
    // connections that are HTTP/2 only when ALPN picks it over TLS.
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    from: "const connectH2 = require('./client-h2.js')",
    to: "const connectH2 = (...a) => require('./client-h2.js')(...a)",
  },
  {
    // commander loads node:child_process for executable subcommands, which svc does not have.
    file: /commander[\\/]lib[\\/]command\.js$/,
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
  },
  {
    // Ink's layout engine (yoga) asks `typeof fetch` before decoding its embedded wasm, which makes Node load its
    // own copy of undici for the global fetch (~60 ms of the live view's first frame); the embedded binary never
    // needs fetching.
    file: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    from: 'function ya(){return w||"function"!=typeof fetch?',
    to: 'function ya(){return true?',
  },
];

const sourcePatches = {
  name: 'source-patches',
  setup(b) {
    for (const { file, from, to } of SOURCE_PATCHES) {
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(from)) throw new Error(`source-patches: "${from}" not found in ${args.path}`);
        return { contents: source.replace(from, to), loader: 'js' };
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
    plugins: [sourcePatches],
    logLevel,
  });
}
