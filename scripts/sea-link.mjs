// The single executable's chunks (split as the package's are: `svc.js` and `chunks/*.js`, CommonJS) linked into what
// it runs, since it has no files beside it: the chunks `agents get` runs at start (`core`: scripts/sea-record.cjs) as
// functions of one table in the main, which the trained code cache covers; every other chunk's source in one asset
// (`chunks.js`), compiled on its first require. A command copies into memory only the source it runs
// (scripts/build/PERF.md, "Only the chunks a command runs").
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
 * A chunk's source as a function of CommonJS's five parameters, each require of another chunk written with its key
 * (`./chunks/chunk-X.js`), so none is resolved at run time; a relative require that names no chunk fails the link.
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
 * The chunk loader, after the table `__svcChunks` (the core) and the index `__svcRest` (where each other chunk lies in
 * REST_ASSET). A chunk runs once, on its first require, as Node runs a CommonJS file (one that throws runs again on the
 * next); `./KEY` is a chunk, any other specifier a builtin.
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

/** Links the SEA build in `dir`: `main` (a CommonJS source) holds the chunks of `core` (or all) and runs `svc.js`; `rest` the others. */
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
    // Parsed here, so a chunk that would not compile fails the build, not the command that first needs it.
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
