// The one set of esbuild options: src/ bundled with code splitting, so each command loads only the chunks it uses.
import { build, transformSync } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCommonJs } from './commonjs-chunks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A module-level Intl.Segmenter, created on first use: the first one built loads ICU's break-iterator data (~10 ms). */
const lazySegmenter = (options) => `(() => { let made; return { segment: (text) => (made ??= new Intl.Segmenter(${options})).segment(text) }; })()`;

/**
 * A module-level regular expression, compiled on first use: V8 builds a `v`-flag class of Unicode properties as the
 * object is made (`\p{RGI_Emoji}` alone ~15 ms), which printable ASCII, string-width's fast path, never needs.
 */
const lazyRegex = (literal) =>
  `(() => { let made; const re = () => (made ??= ${literal}); return { test: (s) => re().test(s), [Symbol.search]: (s) => re()[Symbol.search](s) }; })()`;
/** string-width's `const NAME = LITERAL;` made lazy (its uses are `.test` and `String#search` alone). */
const lazyRegexEdit = (name, literal) => ({
  trick: 'string-width-regex',
  from: `const ${name} = ${literal};`,
  to: `const ${name} = ${lazyRegex(literal)};`,
});

/**
 * Characters of the live view's own frame (separators, arrows, ellipsis, the preview bar) that string-width may count
 * as one column each without segmenting: each is checked against string-width itself before the build patches it.
 */
const NARROW_UI = '\u00B7\u2502\u2013\u2026\u203A\u2192\u21B3\u2500\u258D\u232B';
/** NARROW_UI as `\\uXXXX` escapes for the patched regex: the patched source, and so the bundle, stays ASCII (PERF.md). */
const NARROW_UI_ESCAPED = [...NARROW_UI].map((ch) => `\\u${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');

/**
 * Work dependencies do at load (or on a first use that every frame makes) for paths svc never or rarely takes,
 * deferred or skipped. Each costs start-up on every command that loads the package (bench/run.mjs). The build fails if
 * a dependency's text ever changes, so an upgrade cannot silently undo one.
 */
const SOURCE_PATCHES = [
  {
    // Ink's development mode (DEV=true in the environment) connects to React devtools, a package svc does not ship:
    // svc's live view never runs in it. Each `await` below ran only in that mode; removed, no chunk of the live view
    // has top-level await left, so the whole bundle is CommonJS and compile-cached (scripts/commonjs-chunks.mjs).
    trick: 'ink-dev',
    file: /ink[\\/]build[\\/]utils\.js$/,
    edits: [{ from: "const isDev = () => process.env['DEV'] === 'true';", to: 'const isDev = () => false;' }],
  },
  {
    trick: 'ink-dev',
    file: /ink[\\/]build[\\/]reconciler\.js$/,
    edits: [
      // The devtools module (and the `ws` WebSocket client it loads) is not bundled at all: 70 KB of the executable's main.
      { from: "        await import('./devtools.js');", to: '        void 0;' },
      { from: '    ? await loadPackageJson()', to: '    ? loadPackageJson()' },
    ],
  },
  {
    // yoga-layout awaits its wasm at the top level, though the wasm is embedded: instantiated synchronously from the
    // embedded bytes (`wa()`, Emscripten's synchronous getBinary) the module is ready when loadYoga returns. The
    // asynchronous path also asked `typeof fetch`, which makes Node load its own undici (~60 ms of the first frame).
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
    // Ink measures every text node with string-width: segmenters made at load, and for any character outside
    // printable ASCII a grapheme segmentation plus a `\p{RGI_Emoji}` regex, whose first use costs ~10 ms more. The
    // live view's frame uses a few such characters (NARROW_UI), one column each, so they take the ASCII path.
    trick: 'string-width',
    file: /node_modules[\\/]string-width[\\/]index\.js$/,
    unless: /wrap-ansi[\\/]node_modules/,
    edits: [
      { from: 'const segmenter = new Intl.Segmenter();', to: `const segmenter = ${lazySegmenter('')};` },
      { from: 'if (/^[\\u0020-\\u007E]*$/.test(string)) {', to: `if (/^[\\u0020-\\u007E${NARROW_UI_ESCAPED}]*$/.test(string)) {` },
      // Its `v`-flag regexes, made at load by every command that can print a table (a trick of its own: an edit's
      // `trick` is left out alone).
      lazyRegexEdit(
        'visibleCharacterRegex',
        '/[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]/v',
      ),
      lazyRegexEdit('spacingMarkRegex', '/\\p{Spacing_Mark}/v'),
      lazyRegexEdit('rgiEmojiRegex', '/^\\p{RGI_Emoji}$/v'),
    ],
  },
  {
    // wrap-ansi's own string-width, and the grapheme tokenizers of slice-ansi and Ink's output: segmenters made at load.
    trick: 'string-width',
    file: /wrap-ansi[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
    edits: [{ from: 'const segmenter = new Intl.Segmenter();', to: `const segmenter = ${lazySegmenter('')};` }],
  },
  {
    trick: 'string-width',
    file: /slice-ansi[\\/]tokenize-ansi\.js$/,
    edits: [
      {
        from: "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
        to: `const GRAPHEME_SEGMENTER = ${lazySegmenter("undefined, {granularity: 'grapheme'}")};`,
      },
    ],
  },
  {
    trick: 'string-width',
    file: /@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    edits: [
      {
        from: 'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
        to: `const segmenter = ${lazySegmenter('undefined, { granularity: "grapheme" }')};`,
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
 * Builtins a dependency loads at start-up for work svc never or rarely asks of it, replaced for that dependency alone by
 * a small stand-in (esbuild resolves the import to it; the stand-in's own require of the builtin is left to Node). The
 * build fails when the dependency uses a member the stand-in lacks.
 * - commander loads node:child_process for executable subcommands, which svc does not have: loaded on the first spawn.
 * - conf loads node:crypto for its encryption option, which svc does not give it: loaded on a first use.
 * - stubborn-fs promisifies fs functions as it loads: each on its first call.
 */
const STAND_INS = [
  {
    trick: 'commander-child-process',
    builtin: 'node:child_process',
    importer: /commander[\\/]lib[\\/]command\.js$/,
    members: /\bchildProcess\.(?!spawn\b)[A-Za-z]+/,
    contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    trick: 'conf-crypto',
    builtin: 'node:crypto',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    members: /\bcrypto\.(?!(?:pbkdf2Sync|randomBytes|createCipheriv|createDecipheriv)\b)[A-Za-z]+/,
    contents: `module.exports = Object.fromEntries(
      ['pbkdf2Sync', 'randomBytes', 'createCipheriv', 'createDecipheriv'].map((f) => [f, (...args) => require('node:crypto')[f](...args)]),
    );`,
  },
  {
    // conf compares the file's store with a shallow copy of it (svc gives no defaults) on every open: the same keys
    // holding the same values are equal without node:assert (and the six modules it loads); anything else is asked of it.
    trick: 'conf-assert',
    builtin: 'node:assert',
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
  {
    // stubborn-fs (conf's writer, loaded by every command that reads the config) promisifies 19 fs functions as it
    // loads, and Node's promisify copies each function's properties: ~45 KB of young memory on every start, enough to
    // tip `agents get` into a second scavenge. Each is promisified by Node's own promisify on its first call instead.
    trick: 'stubborn-fs-promisify',
    builtin: 'node:util',
    importer: /stubborn-fs[\\/]dist[\\/]index\.js$/,
    members: /import\s*\{(?!\s*promisify\s*\})[^}]*\}\s*from\s*['"]node:util['"]|\butil\./,
    contents: "module.exports = { promisify: (fn) => { let made; return (...args) => (made ??= require('node:util').promisify(fn))(...args); } };",
  },
];

/**
 * Packages conf imports for options svc never gives it (svc passes a folder, no schema, no migrations, no watch), each
 * resolved by esbuild's `alias` to a small local stand-in in scripts/build/stand-ins/ that throws if it is ever used
 * (`conf-unused`: ajv and ajv-formats, semver, debounce-fn, env-paths with node:os); and atomically's exit hooks
 * (`atomically-no-exit-hooks`: when-exit), which svc must not have: they hook SIGINT, SIGTERM and other signals and
 * raise each again, so svc's first Ctrl-C would reach it as a second (an immediate exit). svc's writes are synchronous,
 * so no signal handler runs while a temp file exists, and one left by a kill is removed under the lock by the next
 * write. The build fails if anything but conf or atomically imports one of these.
 */
const ALIASES = [
  { trick: 'conf-unused', packages: ['ajv/dist/2020.js', 'ajv-formats'], file: 'no-schema.mjs' },
  { trick: 'conf-unused', packages: ['semver'], file: 'no-migrations.mjs' },
  { trick: 'conf-unused', packages: ['debounce-fn'], file: 'no-watch.mjs' },
  { trick: 'conf-unused', packages: ['env-paths'], file: 'no-env-paths.mjs' },
  { trick: 'atomically-no-exit-hooks', packages: ['when-exit'], file: 'no-exit-hooks.mjs' },
];
const ALIAS_IMPORTERS = /node_modules\/(?:conf|atomically)\//;

const aliases = (without) =>
  Object.fromEntries(
    ALIASES.filter(({ trick }) => !without.includes(trick)).flatMap(({ packages, file }) =>
      packages.map((p) => [p, join(root, 'scripts/build/stand-ins', file)]),
    ),
  );

/** Fails the build when a stand-in of ALIASES is imported by a package other than conf or atomically. */
function checkAliasImporters(metafile) {
  const standIns = new Set(ALIASES.map(({ file }) => `scripts/build/stand-ins/${file}`));
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    const standIn = imports.find((i) => standIns.has(i.path));
    if (standIn && !ALIAS_IMPORTERS.test(input))
      throw new Error(`aliases: ${input} imports ${standIn.original}, which the build replaces with ${standIn.path}`);
  }
}

const standIns = (without) => ({
  name: 'stand-ins',
  setup(b) {
    for (const { trick, builtin, importer, members, contents } of STAND_INS) {
      if (without.includes(trick)) continue;
      b.onResolve({ filter: new RegExp(`^${builtin}$`) }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        const member = members.exec(readFileSync(args.importer, 'utf8'));
        if (member) throw new Error(`stand-ins: ${args.importer} uses ${member[0]}, which the ${trick} stand-in lacks`);
        return { path: trick, namespace: 'svc-stand-in' };
      });
      b.onLoad({ filter: new RegExp(`^${trick}$`), namespace: 'svc-stand-in' }, () => ({ contents, loader: 'js' }));
    }
  },
});

/** The string-width patch holds only while string-width itself gives each NARROW_UI character one column. */
async function checkNarrowUi() {
  const { default: stringWidth } = await import('string-width');
  for (const ch of NARROW_UI) {
    if (stringWidth(ch) !== 1 || stringWidth(`a${ch}b`) !== 3)
      throw new Error(`source-patches: string-width no longer counts U+${ch.codePointAt(0).toString(16)} as one column`);
  }
}

const sourcePatches = (without, extra) => ({
  name: 'source-patches',
  setup(b) {
    const patches = [...SOURCE_PATCHES, ...extra];
    // esbuild takes the first onLoad that answers: two entries for one file would drop the second's edits.
    const files = patches.map((p) => `${p.file}${p.unless ?? ''}`);
    if (new Set(files).size !== files.length) throw new Error('source-patches: two entries for one file; merge their edits');
    for (const { trick, file, unless, edits } of patches) {
      if (without.includes(trick)) continue;
      // esbuild's filters are Go regular expressions (no look-behind): `unless` leaves a path to the next patch.
      b.onLoad({ filter: file }, (args) => {
        if (unless?.test(args.path)) return undefined;
        let source = readFileSync(args.path, 'utf8');
        for (const { from, to, trick: own } of edits) {
          if (own && without.includes(own)) continue;
          if (!source.includes(from)) throw new Error(`source-patches: "${from}" not found in ${args.path}`);
          source = source.replace(from, to);
        }
        return { contents: source, loader: 'js' };
      });
    }
  },
});

/**
 * Bundles src/cli/main.ts, src/version.ts for the launcher's `--version` fast path and src/startup/index.ts (what the
 * launcher runs first) into `outdir` (emptied first). `without` names tricks to leave out (the `trick` of SOURCE_PATCHES,
 * STAND_INS and ALIASES, or `builtin-namespaces`): for bench/tricks.mjs, which measures what each saves. With `sea`, the
 * single executable's chunks instead (scripts/sea.mjs links them): src/sea/entry.ts as `svc.js` and its CommonJS
 * chunks, split as the package's are, jq-web inside them, each minified (minifySeaChunks), the licence comments of
 * all of them in `LEGAL.txt`.
 */
export async function bundle(outdir, logLevel = 'warning', without = [], { sea = false, snapshot = false } = {}) {
  await checkNarrowUi();
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    metafile: true,
    entryPoints: sea
      ? { svc: `${root}src/sea/entry.ts` }
      : { cli: `${root}src/cli/main.ts`, version: `${root}src/version.ts`, startup: `${root}src/startup/index.ts` },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node20',
    // The executable carries none (minifySeaChunks rewrites its chunks); the build's maps name a failing chunk's packages.
    sourcemap: 'linked',
    // jq-web loads its .wasm beside its own file (copied to dist/jq/ below; a SEA asset in the executable);
    // react-devtools-core is optional in ink.
    external: sea ? ['react-devtools-core'] : ['jq-web', 'react-devtools-core'],
    // React and Ink ship development builds behind NODE_ENV: several times the memory and CPU of production.
    // SVC_JQ_MODULE: where a chunk (in dist/chunks/) finds the copy of jq-web, so the package needs no node_modules.
    define: {
      'process.env.NODE_ENV': '"production"',
      ...(sea ? { SVC_JQ_SEA: 'true', SVC_SEA_SNAPSHOT: String(snapshot) } : { SVC_JQ_SEA: 'false', SVC_JQ_MODULE: '"../jq/jq.js"' }),
    },
    alias: aliases(without),
    plugins: [sourcePatches(without, sea ? SEA_PATCHES : []), standIns(without)],
    // jq.ts's import.meta sits in the branch the SEA's define removes.
    ...(sea ? { logOverride: { 'empty-import-meta': 'silent' } } : {}),
    // The SEA's licence comments go to a `.LEGAL.txt` beside each chunk, gathered into `LEGAL.txt`, which
    // scripts/sea.mjs carries as an asset of the executable; the chunks are minified below (minifySeaChunks).
    ...(sea ? { legalComments: 'external' } : {}),
    logLevel,
  });
  checkAliasImporters(metafile);
  const shareNamespaces = !without.includes('builtin-namespaces');
  await toCommonJs(outdir, metafile, root, { shareNamespaces });
  if (sea) return minifySeaChunks(outdir, metafile, shareNamespaces);
  copyJq(outdir);
}

/**
 * The SEA's chunks (`outdir/svc.js`, `outdir/chunks/*.js`), each ASCII and minified (PERF.md, "ASCII and minified
 * main", "Names minified"): one non-ASCII character makes V8 hold a source as a two-byte string, decoded from UTF-8
 * on every start, and every byte of it is a byte each start copies into fresh memory. esbuild escapes strings
 * (`charset: 'ascii'`); minifying drops the comments and whitespace, shortens the syntax and renames the identifiers
 * inside each chunk (what chunks share goes through `exports`, whose names stay). A renamed class or function has
 * another `.name`: svc tells its errors by `instanceof` or a name it sets itself (commander's errors take theirs from
 * the class, and svc reads only their `code`; jq's runtime sets `name = "ErrnoError"` as a field). The licence
 * comments esbuild put beside each chunk are gathered into `outdir/LEGAL.txt`.
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
 * svc laid out as the package has it, in `work`: the launcher (with bin/package.json, which makes it CommonJS) in
 * `work/bin`, the bundle in `work/dist`. For tests and benchmarks that run real processes without touching the shared
 * dist/; `work` must be inside node_modules so the bundle's external packages resolve. Returns the launcher's path.
 */
export async function buildPrivateSvc(work, without = []) {
  mkdirSync(join(work, 'bin'), { recursive: true });
  for (const name of ['svc.js', 'package.json']) copyFileSync(join(root, 'bin', name), join(work, 'bin', name));
  await bundle(join(work, 'dist'), 'error', without);
  return join(work, 'bin', 'svc.js');
}
