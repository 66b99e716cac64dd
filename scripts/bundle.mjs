// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build, transformSync } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCommonJs } from './commonjs-chunks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Edits of dependencies' sources, each measured in scripts/build/PERF.md (its row names the test that guards it). An
 * edit whose text is not found fails the build, so an upgrade cannot silently undo one. `from` is a string, or a
 * RegExp (global) with the number of matches it must have.
 */
const SOURCE_PATCHES = [
  {
    // Ink's devtools (DEV=true only, a package svc does not ship) are awaited at the top level: with the awaits gone,
    // the live view's chunks can be CommonJS like the rest (scripts/commonjs-chunks.mjs).
    trick: 'ink-dev',
    file: /ink[\\/]build[\\/]reconciler\.js$/,
    edits: [
      { from: "        await import('./devtools.js');", to: '        void 0;' },
      { from: '    ? await loadPackageJson()', to: '    ? { name: undefined, version: undefined }' },
    ],
  },
  {
    // yoga-layout awaits its embedded wasm at the top level: instantiated synchronously from the embedded bytes
    // (Emscripten's `wa()`), it is ready when loadYoga returns, and no `typeof fetch` loads Node's own undici.
    trick: 'yoga-sync',
    file: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    edits: [{ from: 'if(h.instantiateWasm)try{', to: 'a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d));return{};if(h.instantiateWasm)try{' }],
  },
  {
    trick: 'yoga-sync',
    file: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/,
    edits: [
      { from: 'const Yoga = wrapAssembly(await loadYoga());', to: 'const yogaModule = {};\nloadYoga(yogaModule);\nconst Yoga = wrapAssembly(yogaModule);' },
    ],
  },
  {
    // string-width, loaded by every command that can print a table, made a Segmenter (ICU's break-iterator data) and
    // three `v`-flag property regexes (`\p{RGI_Emoji}` alone ~15 ms) as it loaded: each is made on its first use.
    trick: 'string-width',
    file: /node_modules[\\/]string-width[\\/]index\.js$/,
    unless: /wrap-ansi[\\/]node_modules/,
    edits: [
      {
        from: /^const (segmenter|visibleCharacterRegex|spacingMarkRegex|rgiEmojiRegex) = (.+);$/gm,
        count: 4,
        to: (_, name, made) =>
          `const ${name} = (() => { let made; const it = () => (made ??= ${made}); return ${
            name === 'segmenter' ? '{ segment: (s) => it().segment(s) }' : '{ test: (s) => it().test(s), [Symbol.search]: (s) => it()[Symbol.search](s) }'
          }; })();`,
      },
    ],
  },
];

/**
 * The single executable's own: jq-web, inside the bundle, takes its WebAssembly from the executable's `jq.wasm`
 * asset (sea-config's `assets`) rather than reading a file beside its own, which the executable has not.
 */
const SEA_PATCHES = [
  {
    trick: 'sea-jq-asset',
    file: /jq-web[\\/]jq\.js$/,
    edits: [{ from: 'jq = jq().then(', to: "jq = jq({ wasmBinary: new Uint8Array(require('node:sea').getAsset('jq.wasm')) }).then(" }],
  },
];

/**
 * Imports of one dependency resolved to a stand-in (esbuild's onResolve, for that importer alone): a builtin it loads as
 * it loads for work svc never asks of it, required on a first use instead (`contents`); or a package it needs only for
 * options svc never gives it (`file`, in scripts/build/stand-ins/, which throws if used). The build fails when the
 * dependency uses a member the stand-in lacks (`members`).
 */
const STAND_INS = [
  {
    // conf's `encryptionKey` option, which svc does not give.
    trick: 'conf-crypto',
    request: /^node:crypto$/,
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    members: /\bcrypto\.(?!(?:pbkdf2Sync|randomBytes|createCipheriv|createDecipheriv)\b)[A-Za-z]+/,
    contents: `module.exports = Object.fromEntries(
      ['pbkdf2Sync', 'randomBytes', 'createCipheriv', 'createDecipheriv'].map((f) => [f, (...args) => require('node:crypto')[f](...args)]),
    );`,
  },
  {
    // stubborn-fs (conf's writer) promisifies 19 fs functions as it loads; svc's config writes are synchronous.
    trick: 'stubborn-fs-promisify',
    request: /^node:util$/,
    importer: /stubborn-fs[\\/]dist[\\/]index\.js$/,
    members: /import\s*\{(?!\s*promisify\s*\})[^}]*\}\s*from\s*['"]node:util['"]|\butil\./,
    contents: "module.exports = { promisify: (fn) => { let made; return (...args) => (made ??= require('node:util').promisify(fn))(...args); } };",
  },
  {
    // commander's executable subcommands, which svc has none of (the executable: 4.7 % of its CPU).
    trick: 'commander-child-process',
    request: /^node:child_process$/,
    importer: /commander[\\/]lib[\\/]command\.js$/,
    members: /\bchildProcess\.(?!spawn\b)[A-Za-z]+/,
    contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    // conf compares the file's store with a shallow copy of it on every open (svc gives no defaults): equal keys holding
    // identical values are equal without node:assert and the modules it loads; anything else is asked of it.
    trick: 'conf-assert',
    request: /^node:assert$/,
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    members: /\bassert(?:\.(?!deepEqual\b)[A-Za-z]+|\s*\()/,
    contents: `module.exports = {
      deepEqual(a, b) {
        const ka = Object.keys(a), kb = Object.keys(b);
        if (ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k])) return;
        require('node:assert').deepEqual(a, b);
      },
    };`,
  },
  // conf's migrations (semver: the executable, 13 % of its CPU) and schema validator: svc gives conf neither.
  { trick: 'conf-semver', request: /^semver$/, importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/, file: 'no-migrations.mjs' },
  { trick: 'conf-ajv', request: /^(?:ajv\/dist\/2020\.js|ajv-formats)$/, importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/, file: 'no-schema.mjs' },
  // Not a saving, a behaviour: when-exit hooks SIGINT, SIGTERM and other signals and raises each again, so svc's first
  // Ctrl-C would reach the launcher as a second (an immediate exit, not a graceful stop).
  { trick: 'atomically-no-exit-hooks', request: /^when-exit$/, importer: /atomically[\\/]dist[\\/]/, file: 'no-exit-hooks.mjs' },
];

const standIns = (without) => ({
  name: 'stand-ins',
  setup(b) {
    for (const { trick, request, importer, members, contents, file } of STAND_INS) {
      if (without.includes(trick)) continue;
      b.onResolve({ filter: request }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        const member = members?.exec(readFileSync(args.importer, 'utf8'));
        if (member) throw new Error(`stand-ins: ${args.importer} uses ${member[0]}, which the ${trick} stand-in lacks`);
        return file ? { path: join(root, 'scripts/build/stand-ins', file) } : { path: trick, namespace: 'svc-stand-in' };
      });
      if (contents) b.onLoad({ filter: new RegExp(`^${trick}$`), namespace: 'svc-stand-in' }, () => ({ contents, loader: 'js' }));
    }
  },
});

/** One edit of `source`, or the build fails: a string found once, or a RegExp matching exactly `count` times. */
function edit(source, { from, to, count }, path) {
  const found = typeof from === 'string' ? (source.includes(from) ? 1 : 0) : (source.match(from) ?? []).length;
  if (found !== (count ?? 1)) throw new Error(`source-patches: ${from} found ${found} times in ${path}, not ${count ?? 1}`);
  return source.replace(from, to);
}

const sourcePatches = (without, extra) => ({
  name: 'source-patches',
  setup(b) {
    for (const { trick, file, unless, edits } of [...SOURCE_PATCHES, ...extra]) {
      if (without.includes(trick)) continue;
      // esbuild's filters are Go regular expressions (no look-behind): `unless` leaves a path unpatched.
      b.onLoad({ filter: file }, (args) => {
        if (unless?.test(args.path)) return undefined;
        return { contents: edits.reduce((source, e) => edit(source, e, args.path), readFileSync(args.path, 'utf8')), loader: 'js' };
      });
    }
  },
});

/**
 * Bundles src/cli/main.ts, src/startup/launch.ts (the launcher, with its `--version`) and src/startup/index.ts (what the launcher runs
 * first) into `outdir` (emptied first). `without` names tricks to leave out (a `trick` above, or `builtin-namespaces`):
 * for bench/tricks.mjs. With `sea`, the single executable's chunks instead (scripts/sea.mjs links them):
 * src/sea/entry.ts as `svc.js` and its chunks, jq-web inside them, each minified, the licences in `LEGAL.txt`.
 */
export async function bundle(outdir, logLevel = 'warning', without = [], { sea = false } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    metafile: true,
    entryPoints: sea
      ? { svc: `${root}src/sea/entry.ts` }
      : { cli: `${root}src/cli/main.ts`, launch: `${root}src/startup/launch.ts`, startup: `${root}src/startup/index.ts` },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // jq-web loads its .wasm beside its own file (copied to dist/jq/; a SEA asset); react-devtools-core is optional.
    external: sea ? ['react-devtools-core'] : ['jq-web', 'react-devtools-core'],
    // React and Ink ship development builds behind NODE_ENV: several times the memory and CPU of production.
    // SVC_JQ_MODULE: where a chunk (in dist/chunks/) finds the copy of jq-web, so the package needs no node_modules.
    define: {
      'process.env.NODE_ENV': '"production"',
      ...(sea ? { SVC_JQ_SEA: 'true' } : { SVC_JQ_SEA: 'false', SVC_JQ_MODULE: '"../jq/jq.js"' }),
    },
    plugins: [sourcePatches(without, sea ? SEA_PATCHES : []), standIns(without)],
    // jq.ts's import.meta sits in the branch the SEA's define removes; the licences go beside each chunk.
    ...(sea ? { logOverride: { 'empty-import-meta': 'silent' }, legalComments: 'external' } : {}),
    logLevel,
  });
  const shareNamespaces = !without.includes('builtin-namespaces');
  await toCommonJs(outdir, metafile, root, { shareNamespaces });
  if (sea) return minifySeaChunks(outdir, metafile, shareNamespaces);
  copyJq(outdir);
}

/**
 * The SEA's chunks, each ASCII (one non-ASCII character makes V8 hold a source as a two-byte string, decoded on every
 * start) and minified, names too (fewer bytes copied into fresh memory each start; svc tells errors by `instanceof`
 * or a name it sets, never a class's `.name`). The licence comments beside each chunk are gathered into `LEGAL.txt`.
 */
function minifySeaChunks(outdir, metafile, shareNamespaces) {
  const outputs = Object.keys(metafile.outputs)
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(root, f));
  // Each builtin import rewritten (scripts/builtin-namespaces.mjs): shared whole, or its default alone.
  const rewritten = (text) => text.includes('__svcBuiltinNamespace(require("node:') || text.includes('{ default: require("node:');
  if (shareNamespaces && !outputs.some((f) => rewritten(readFileSync(f, 'latin1')))) {
    throw new Error('builtin-namespaces: no `__toESM(require("node:…"), 1)` in the chunks; has esbuild changed its interop?');
  }
  const legal = [];
  for (const file of outputs) {
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      format: 'cjs',
      charset: 'ascii',
      minifyWhitespace: true,
      minifySyntax: true,
      minifyIdentifiers: true,
      legalComments: 'none',
      logLevel: 'error',
    });
    writeFileSync(file, code);
    if (existsSync(`${file}.LEGAL.txt`)) {
      legal.push(readFileSync(`${file}.LEGAL.txt`, 'utf8'));
      rmSync(`${file}.LEGAL.txt`);
    }
  }
  writeFileSync(join(outdir, 'LEGAL.txt'), legal.join('\n'));
}

/** jq-web's two files (its module and the WebAssembly it loads from its own folder), so dist/ runs without node_modules. */
function copyJq(outdir) {
  const from = dirname(createRequire(import.meta.url).resolve('jq-web'));
  mkdirSync(join(outdir, 'jq'), { recursive: true });
  for (const name of ['jq.js', 'jq.wasm']) copyFileSync(join(from, name), join(outdir, 'jq', name));
  // The copy is CommonJS whatever a package.json above says.
  writeFileSync(join(outdir, 'jq', 'package.json'), '{ "type": "commonjs" }\n');
}

/**
 * svc laid out as the package has it in `work` (bin/ and dist/), for tests and benchmarks that run real processes
 * without touching dist/; `work` must be inside node_modules so external packages resolve. Returns the launcher's path.
 */
export async function buildPrivateSvc(work, without = []) {
  mkdirSync(join(work, 'bin'), { recursive: true });
  for (const name of ['svc.js', 'package.json']) copyFileSync(join(root, 'bin', name), join(work, 'bin', name));
  await bundle(join(work, 'dist'), 'error', without);
  return join(work, 'bin', 'svc.js');
}
