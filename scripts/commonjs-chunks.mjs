// The second half of the build: esbuild's split ESM chunks converted one by one to CommonJS (esbuild cannot split it),
// so a command never starts Node's ESM loader and Node 20 can cache their compiled code (src/startup/compile-cache.ts).
import { build, transformSync } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { shareBuiltinNamespaces } from './builtin-namespaces.mjs';

/** `import.meta.url` in a CommonJS chunk (src/output/jq.ts finds jq-web from it). */
const META_URL = 'var __svcImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';

/**
 * Converts the `.js` outputs of an esbuild ESM build (its metafile, relative to `root`) in `outdir`, with a
 * `package.json` that makes `.js` CommonJS there. `shareNamespaces`: scripts/builtin-namespaces.mjs. `minify` (the
 * executable's): each chunk ASCII and minified, names too (svc never reads a class's `.name`); the licences returned.
 */
export async function toCommonJs(outdir, metafile, root, { shareNamespaces = true, minify = false } = {}) {
  const outputs = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js'));
  await build({
    entryPoints: outputs.map((f) => join(root, f)),
    outdir,
    outbase: outdir,
    allowOverwrite: true,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    define: { 'import.meta.url': '__svcImportMetaUrl' },
    logLevel: 'warning',
  }).catch(refusal);
  const legal = [];
  for (const f of outputs) {
    const file = join(root, f);
    // import() of a chunk, a builtin or a package: require(), so no ESM loader starts.
    let code = readFileSync(file, 'utf8').replace(/\bimport\(\s*"([^"]+)"\s*\)/g, (_, spec) => `Promise.resolve().then(() => require("${spec}"))`);
    // Modules are strict, and esbuild's CommonJS says so only for some inputs: the directive first, then what the
    // chunk needs of import.meta, all on the first line so the source map holds.
    code = code.replace(/^"use strict";/, '');
    if (shareNamespaces) code = shareBuiltinNamespaces(code);
    code = `"use strict";${code.includes('__svcImportMetaUrl') ? META_URL : ''}${code}`;
    const min = minify && transformSync(code, { format: 'cjs', charset: 'ascii', minify, legalComments: 'external', logLevel: 'error' });
    writeFileSync(file, min ? min.code : code);
    if (min?.legalComments) legal.push(min.legalComments);
  }
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  return legal;
}

/** A chunk esbuild cannot convert (one that awaits at the top level: patch the dependency), named with its packages. */
function refusal(err) {
  const file = resolve(err.errors?.[0]?.location?.file ?? '.');
  const sources = existsSync(`${file}.map`) ? JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources : [];
  const packages = [...new Set(sources.map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1]).filter(Boolean))];
  throw new Error(
    `commonjs-chunks: ${relative(process.cwd(), file)} (from ${packages.join(', ') || 'src/'}) cannot be CommonJS: ${err.errors?.[0]?.text ?? err.message}. Patch the await out in scripts/bundle.mjs (SOURCE_PATCHES).`,
    { cause: err },
  );
}
