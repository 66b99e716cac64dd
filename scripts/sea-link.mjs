// The single executable's chunks (CommonJS, as the package's) linked, since it has no files beside it: those `agents get`
// runs (`core`: scripts/sea-train.cjs) as functions of one table in the main, which the trained code cache covers;
// every other chunk's source in one asset, compiled on its first require.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

/** The asset of the chunks outside the main. */
export const REST_ASSET = 'chunks.js';

/** Every chunk of a SEA build in `dir`, as the keys the chunks require each other by: `svc.js`, `chunks/NAME.js`. */
export function chunkKeys(dir) {
  const files = readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.js'));
  return ['svc.js', ...files.sort().map((f) => `chunks/${f}`)];
}

/** A chunk as a function of CommonJS's five parameters, requiring each other chunk by its key (an unknown one fails). */
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
 * The loader of the table `__svcChunks` (the core) and the index `__svcRest` (each other chunk in REST_ASSET): a chunk
 * runs once, as Node runs a CommonJS file (one that throws runs again on its next require); the modules are exported.
 */
const LOADER = `
const __svcModules = (module.exports = {});
const __svcCompile = (key) => {
  const at = __svcRest[key];
  if (!at) throw new Error('svc: the executable has no chunk ' + key);
  const source = Buffer.from(require('node:sea').getRawAsset(${JSON.stringify(REST_ASSET)}), at[0], at[1] - at[0]).toString('latin1');
  return new (require('node:vm').Script)(source, { filename: key }).runInThisContext();
};
const __svcLoad = (key) => {
  if (__svcModules[key]) return __svcModules[key].exports;
  const module = (__svcModules[key] = { exports: {} });
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

/** Links the SEA build in `dir`: `main` (a CommonJS source) holds the chunks of `core` (or all) and runs `svc.js`; `rest` the others. */
export function linkChunks(dir, core) {
  const keys = chunkKeys(dir);
  const unknown = [...(core ?? [])].filter((k) => !keys.includes(k));
  if (unknown.length) throw new Error(`sea-link: no such chunk: ${unknown.join(', ')}`);
  if (core && !core.has('svc.js')) throw new Error('sea-link: the main must hold svc.js');
  const rest = [];
  const index = {};
  let at = 0;
  for (const key of keys.filter((k) => core && !core.has(k))) {
    // Parsed here, so a chunk that would not compile fails the build, not the command that first needs it.
    const source = `(${asFunction(dir, key, keys)})`;
    new Script(source, { filename: key });
    index[key] = [at, (at += source.length)];
    rest.push(source);
  }
  const table = keys.filter((k) => !core || core.has(k)).map((k) => `${JSON.stringify(k)}:${asFunction(dir, k, keys)}`);
  return { main: `"use strict";const __svcChunks={${table.join(',\n')}};\nconst __svcRest = ${JSON.stringify(index)};${LOADER}`, rest: rest.join('') };
}
