// The one set of esbuild options (src/ split so a command loads only its chunks); each trick below: scripts/build/PERF.md.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCommonJs } from './commonjs-chunks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Edits of dependencies' sources: `from` (a string, or a RegExp with `count` matches) not found fails the build. */
const SOURCE_PATCHES = [
  {
    // Ink's devtools (DEV=true only, a package svc does not ship) are awaited at the top level, which CommonJS cannot do.
    trick: 'ink-dev',
    file: /ink[\\/]build[\\/]reconciler\.js$/,
    edits: [
      { from: "        await import('./devtools.js');", to: '        void 0;' },
      { from: '    ? await loadPackageJson()', to: '    ? { name: undefined, version: undefined }' },
    ],
  },
  {
    // yoga-layout awaits its embedded wasm at the top level: instantiated synchronously from the embedded bytes.
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
    // string-width made a Segmenter and three `v`-flag property regexes as it loaded: each is made on its first use.
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
  {
    // The single executable's only: jq-web takes its WebAssembly from the executable's asset, having no file beside it.
    trick: 'sea-jq-asset',
    sea: true,
    file: /jq-web[\\/]jq\.js$/,
    edits: [{ from: 'jq = jq().then(', to: "jq = jq({ wasmBinary: new Uint8Array(require('node:sea').getAsset('jq.wasm')) }).then(" }],
  },
];

const conf = /conf[\\/]dist[\\/]source[\\/]index\.js$/;
/** An import of `importer` resolved to a file of scripts/build/stand-ins/; the build fails if it uses `members` the file lacks. */
const STAND_INS = [
  // conf's `encryptionKey` option, which svc does not give.
  {
    trick: 'conf-crypto',
    request: /^node:crypto$/,
    importer: conf,
    file: 'crypto-on-first-use.cjs',
    members: /\bcrypto\.(?!(?:pbkdf2Sync|randomBytes|createCipheriv|createDecipheriv)\b)\w+/,
  },
  // undici's HTTP/2 client (node:http2, node:tls, node:crypto): used only when ALPN picks h2, and svc never allows it.
  { trick: 'undici-h2', request: /^\.\/client-h2\.js$/, importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, file: 'undici-h2.cjs' },
  { trick: 'stubborn-fs-promisify', request: /^node:util$/, importer: /stubborn-fs[\\/]dist[\\/]index\.js$/, file: 'promisify-on-first-call.mjs' },
  // conf's migrations and schema validator: svc gives conf neither.
  { trick: 'conf-semver', request: /^semver$/, importer: conf, file: 'conf-unused.mjs' },
  { trick: 'conf-ajv', request: /^(?:ajv\/dist\/2020\.js|ajv-formats)$/, importer: conf, file: 'conf-unused.mjs' },
  // A behaviour, not a saving: when-exit re-raises SIGINT and SIGTERM, so a first Ctrl-C would end svc at once.
  { trick: 'atomically-no-exit-hooks', request: /^when-exit$/, importer: /atomically[\\/]dist[\\/]/, file: 'no-exit-hooks.mjs' },
];

/** One edit of `source`, or the build fails: a string found once, or a RegExp matching exactly `count` times. */
function edit(source, { from, to, count = 1 }, path) {
  const found = typeof from === 'string' ? Number(source.includes(from)) : (source.match(from) ?? []).length;
  if (found !== count) throw new Error(`source-patches: ${from} found ${found} times in ${path}, not ${count}`);
  return source.replace(from, to);
}

/** The patches and stand-ins of a build, but those `without` names (bench/tricks.mjs measures each so). */
const tricks = (without, sea) => ({
  name: 'tricks',
  setup(b) {
    for (const { trick, file, unless, edits, ...patch } of SOURCE_PATCHES) {
      if (without.includes(trick) || (patch.sea && !sea)) continue;
      // esbuild's filters are Go regular expressions (no look-behind): `unless` leaves a path unpatched.
      b.onLoad({ filter: file }, ({ path }) =>
        unless?.test(path) ? undefined : { contents: edits.reduce((source, e) => edit(source, e, path), readFileSync(path, 'utf8')), loader: 'js' },
      );
    }
    for (const { trick, request, importer, file, members } of STAND_INS) {
      if (without.includes(trick)) continue;
      b.onResolve({ filter: request }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        const other = members?.exec(readFileSync(args.importer, 'utf8'));
        if (other) throw new Error(`stand-ins: ${args.importer} uses ${other[0]}, which the ${trick} stand-in lacks`);
        return { path: join(root, 'scripts/build/stand-ins', file) };
      });
    }
  },
});

/** Bundles the launcher's entries (src/startup/launch.ts, what it runs first, the command tree) into `outdir` (emptied first), or with `sea` the executable's; `without`: tricks left out. */
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
    // React's and Ink's development builds cost several times the memory and CPU. SVC_JQ_MODULE: jq-web's copy.
    define: { 'process.env.NODE_ENV': '"production"', ...(sea ? { SVC_JQ_SEA: 'true' } : { SVC_JQ_SEA: 'false', SVC_JQ_MODULE: '"../jq/jq.js"' }) },
    plugins: [tricks(without, sea)],
    // jq.ts's import.meta sits in the branch the SEA's define removes.
    ...(sea ? { logOverride: { 'empty-import-meta': 'silent' } } : {}),
    logLevel,
  });
  const legal = await toCommonJs(outdir, metafile, root, { shareNamespaces: !without.includes('builtin-namespaces'), minify: sea });
  if (sea) return writeFileSync(join(outdir, 'LEGAL.txt'), legal.join('\n')); // the licences of its minified libraries
  // jq-web's module and the WebAssembly it reads beside it, so dist/ runs without node_modules; CommonJS whatever is above.
  const jq = dirname(createRequire(import.meta.url).resolve('jq-web'));
  mkdirSync(join(outdir, 'jq'));
  for (const name of ['jq.js', 'jq.wasm']) copyFileSync(join(jq, name), join(outdir, 'jq', name));
  writeFileSync(join(outdir, 'jq', 'package.json'), '{ "type": "commonjs" }\n');
  if (!without.includes('linked-core')) linkCore(outdir);
}

// `node -e RECORD -- DIST ARGS…`: svc from DIST runs ARGS, then writes to fd 3 the files (relative to DIST) loaded past the launcher's.
const RECORD = `const [d,...a]=process.argv.slice(1),p=require('node:path'),l=require(p.join(d,'launch.js')),s=new Set(Object.keys(require.cache));process.on('exit',()=>require('node:fs').writeSync(3,Object.keys(require.cache).filter((f)=>!s.has(f)).map((f)=>p.relative(d,f)).join('\\n')));l.launch({tree:()=>require(p.join(d,'cli.js'))},a)`;
/** dist/core.js, the chunks `svc --help` runs (the command tree), and dist/core-request.js, those a request command adds (an
 * `agents get` refused a connection), recorded with no profile and no cache: each a table of functions, one read and one
 * code-cache entry (src/startup/compile-cache.ts; PERF.md, `linked-core`). core.js lists core-request.js's chunks as `next`. */
function linkCore(outdir) {
  const options = { env: { SVC_CONFIG_DIR: join(outdir, 'none'), NODE_DISABLE_COMPILE_CACHE: '1' }, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] };
  const loads = (...argv) => String(spawnSync(process.execPath, ['-e', RECORD, '--', outdir, ...argv], options).output[3]).split('\n');
  const tree = loads('--help');
  const request = loads('agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0').filter((f) => !tree.includes(f));
  const fn = (k) => `${JSON.stringify(k)}:function(exports,require,module,__filename,__dirname){${readFileSync(join(outdir, k), 'utf8')}\n}`;
  writeFileSync(join(outdir, 'core.js'), `({next:${JSON.stringify(request)},chunks:{${tree.map(fn).join(',\n')}}})`);
  writeFileSync(join(outdir, 'core-request.js'), `({next:[],chunks:{${request.map(fn).join(',\n')}}})`);
}

/** svc laid out as the package has it in `work` (inside node_modules) for tests and benches; the launcher's path. */
export async function buildPrivateSvc(work, without = []) {
  cpSync(join(root, 'bin'), join(work, 'bin'), { recursive: true });
  await bundle(join(work, 'dist'), 'error', without);
  return join(work, 'bin', 'svc.js');
}
