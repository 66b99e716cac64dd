// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

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
    logLevel,
  });
}
