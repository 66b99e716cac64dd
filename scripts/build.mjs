// Bundles src/ into dist/ with code splitting: each command loads only the chunks it uses.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // jq-wasm loads its .wasm beside its own file; react-devtools-core is optional in ink.
  external: ['jq-wasm', 'react-devtools-core'],
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
