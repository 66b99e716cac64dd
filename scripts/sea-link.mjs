// The single executable's chunks linked into what it runs (scripts/sea.mjs). The SEA build splits svc as the package
// is split (scripts/bundle.mjs): `svc.js` and `chunks/*.js`, CommonJS, each requiring the others by relative path.
// An executable has no files beside it, so:
//   - the chunks a command needs at start (`core`, found by a build-time run of `agents get`: scripts/sea-record.cjs)
//     become functions in one table, in the main, which the trained code cache covers;
//   - every other chunk's source goes, as a function expression, into one asset (`chunks.js`), and the main holds
//     where each begins and ends; a chunk is compiled from there the first time something requires it.
// So a command copies into memory only the source it runs: on this machine every fresh page costs ~15 µs, and the one
// 1.3 MB main cost ~7 ms at each start to copy alone (scripts/build/PERF.md, "Only the chunks a command runs").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { transformSync } from 'esbuild';

/** The asset of the chunks outside the main. */
export const REST_ASSET = 'chunks.js';

/** Every chunk of a SEA build in `dir`, as the keys the chunks require each other by: `svc.js`, `chunks/NAME.js`. */
export function chunkKeys(dir) {
  return [
    'svc.js',
    ...readdirSync(join(dir, 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .sort()
      .map((f) => `chunks/${f}`),
  ];
}

/**
 * A chunk's CommonJS source as a function expression of CommonJS's five parameters, each `require` of another chunk
 * written with that chunk's key (`require("./chunk-X.js")` in `chunks/` becomes `require("./chunks/chunk-X.js")`), so
 * the loader resolves none at run time; `keys` are the build's, and a relative require that names none of them fails.
 */
function asFunction(dir, key, keys) {
  const base = key.includes('/') ? `${key.slice(0, key.lastIndexOf('/'))}/` : '';
  const source = readFileSync(join(dir, key), 'latin1').replace(/\brequire\("(\.{1,2}\/[^"]*)"\)/g, (_, spec) => {
    const target = spec.startsWith('./') ? `${base}${spec.slice(2)}` : undefined;
    if (!target || !keys.includes(target)) throw new Error(`sea-link: ${key} requires ${spec}, which is no chunk of the build`);
    return `require("./${target}")`;
  });
  return `function(exports,require,module,__filename,__dirname){${source}\n}`;
}

/**
 * The chunk loader, in the main after the table `__svcChunks` (the core chunks) and the index `__svcRest` (where each
 * other chunk lies in REST_ASSET): names no chunk's free variable could mean. A chunk runs once, on its first require,
 * as Node runs a CommonJS file; one that throws runs again on the next require. `./KEY` is a chunk (asFunction wrote
 * it so); any other specifier is a builtin, required by the main's own require.
 */
const LOADER = `
const __svcModules = {};
const __svcCompile = (key) => {
  const at = __svcRest[key];
  if (!at) throw new Error('svc: the executable has no chunk ' + key);
  const source = Buffer.from(require('node:sea').getRawAsset(${JSON.stringify(REST_ASSET)}), at[0], at[1] - at[0]).toString('latin1');
  return new (require('node:vm').Script)(source, { filename: key }).runInThisContext();
};
const __svcLoad = (key) => {
  const have = __svcModules[key];
  if (have) return have.exports;
  const module = { exports: {} };
  __svcModules[key] = module;
  try {
    (__svcChunks[key] ?? __svcCompile(key)).call(module.exports, module.exports, (spec) => spec.startsWith('./') ? __svcLoad(spec.slice(2)) : require(spec), module, key, '.');
  } catch (err) {
    delete __svcModules[key];
    throw err;
  }
  return module.exports;
};
__svcLoad('svc.js');
`;

/**
 * Links the SEA build in `dir`: `main` is a CommonJS file's source (it needs `require`, for builtins) holding the
 * chunks of `core` (every chunk when `core` is not given) and running `svc.js`; `rest` is the asset of the others
 * (empty when every chunk is in the main). Both are ASCII, as the chunks are.
 */
export function linkChunks(dir, core) {
  const keys = chunkKeys(dir);
  const inMain = core ? keys.filter((k) => core.has(k)) : keys;
  if (!inMain.includes('svc.js')) throw new Error('sea-link: the main must hold svc.js');
  const unknown = core ? [...core].filter((k) => !keys.includes(k)) : [];
  if (unknown.length) throw new Error(`sea-link: no such chunk: ${unknown.join(', ')}`);
  const rest = [];
  const index = {};
  let at = 0;
  for (const key of keys.filter((k) => !inMain.includes(k))) {
    // Parenthesised, so the Script's completion value is the function; parsed here, so a chunk the executable could
    // not compile fails the build, not the command that first needs it.
    const source = `(${asFunction(dir, key, keys)})`;
    new Script(source, { filename: key });
    index[key] = [at, at + source.length];
    rest.push(source);
    at += source.length;
  }
  const table = inMain.map((k) => `${JSON.stringify(k)}:${asFunction(dir, k, keys)}`).join(',\n');
  const { code: loader } = transformSync(`const __svcRest = ${JSON.stringify(index)};\n${LOADER}`, {
    format: 'cjs',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
  return { main: `"use strict";const __svcChunks={${table}};\n${loader}`, rest: rest.join('') };
}
