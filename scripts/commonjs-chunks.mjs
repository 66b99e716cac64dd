// The second half of the build: esbuild's split ESM output turned into CommonJS chunks, which Node 20 loads with
// its CommonJS loader. A command then never starts Node's ESM loader: on this machine that is ~10 ms of start-up
// before the first module, and ~0.5 ms per module after it, against a few hundredths for require() (bench/run.mjs).
// esbuild cannot split CommonJS itself, so its ESM chunks are converted one by one, source maps chained.
//
// A chunk with top-level await (the live view's Ink: yoga-layout awaits its wasm) cannot be CommonJS. It stays ESM
// as `.mjs`, and so does every chunk that imports it statically; CommonJS chunks reach them through import() only.
import { build, transformSync } from 'esbuild';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, posix, relative } from 'node:path';

/** The ESM chunks' own `require`, for the CommonJS packages bundled inside them (what esbuild's __require calls). */
const ESM_REQUIRE = "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);";
/** `import.meta.url` in a CommonJS chunk (src/output/jq.ts finds jq-web from it). */
const META_URL = 'var __svcImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';

/**
 * Converts the `.js` outputs of an esbuild ESM build (its metafile) in `outdir`; writes `package.json` there, so
 * `.js` is CommonJS whatever the package around it says. `root` is the build's working directory (the metafile's base).
 */
export async function toCommonJs(outdir, metafile, root) {
  const outputs = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js'));
  const rel = (f) => relative(outdir, join(root, f)).split('\\').join('/');
  const esm = esmOnly(outputs, metafile, (f) => readFileSync(join(root, f), 'utf8'), rel);

  const cjs = outputs.filter((f) => !esm.has(rel(f)));
  await build({
    entryPoints: cjs.map((f) => join(root, f)),
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
  });

  for (const f of outputs) {
    const name = rel(f);
    const file = join(outdir, name);
    let code = readFileSync(file, 'utf8');
    // import() of a CommonJS chunk, a builtin or a package: require() (no ESM loader); of an ESM chunk: its `.mjs`.
    code = code.replace(/\bimport\(\s*"([^"]+)"\s*\)/g, (_, spec) => {
      const target = spec.startsWith('.') ? posix.join(posix.dirname(name), spec) : undefined;
      if (target && esm.has(target)) return `import("${toMjs(spec)}")`;
      return `Promise.resolve().then(() => require("${spec}"))`;
    });
    if (esm.has(name)) {
      code = code.replace(/(\bfrom\s*"|\bimport\s*")(\.[^"]+)"/g, (m, head, spec) => (esm.has(posix.join(posix.dirname(name), spec)) ? `${head}${toMjs(spec)}"` : m));
      code = code.replace(/(\/\/# sourceMappingURL=)(\S+)\.js\.map\s*$/, '$1$2.mjs.map\n');
      writeFileSync(file, code);
      prependLine(file, ESM_REQUIRE, (map) => (map.file = basename(toMjs(file))));
      renameSync(file, toMjs(file));
      renameSync(`${file}.map`, `${toMjs(file)}.map`);
    } else {
      // Modules are strict; esbuild's CommonJS says so only for some inputs. On the first line, so the map holds.
      writeFileSync(file, code.startsWith('"use strict";') ? code : `"use strict";${code}`);
      if (code.includes('__svcImportMetaUrl')) prependLine(file, META_URL);
    }
  }
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
}

const toMjs = (p) => p.replace(/\.js$/, '.mjs');

/** Chunks with top-level await, and every chunk that imports one of those statically (outdir-relative names). */
function esmOnly(outputs, metafile, read, rel) {
  const esm = new Set();
  for (const f of outputs) {
    try {
      transformSync(read(f), { format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent' });
    } catch (err) {
      if (!String(err.message).includes('Top-level await')) throw err;
      esm.add(rel(f));
    }
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of outputs) {
      if (esm.has(rel(f))) continue;
      const imports = metafile.outputs[f].imports.filter((i) => i.kind === 'import-statement' && !i.external);
      if (imports.some((i) => esm.has(rel(i.path)))) {
        esm.add(rel(f));
        grew = true;
      }
    }
  }
  return esm;
}

/** Puts one line before a file's first, moving its linked source map down by one line. */
function prependLine(file, line, editMap = () => {}) {
  writeFileSync(file, `${line}\n${readFileSync(file, 'utf8')}`);
  const mapFile = `${file}.map`;
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  map.mappings = `;${map.mappings}`;
  editMap(map);
  writeFileSync(mapFile, JSON.stringify(map));
}
