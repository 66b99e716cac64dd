// esbuild turns `import fs from 'node:fs'` in CommonJS output into `__toESM(require("node:fs"), 1)`: a fresh object
// with a getter per property of the builtin, made again by every module that imports it (conf, atomically and
// stubborn-fs: node:process 85, node:fs 106). A builtin's namespace is made once per process and shared instead
// (scripts/build/PERF.md, "One namespace per builtin"); a package's own exports keep esbuild's interop.
const CALL = /__toESM\(require\("(node:[a-z_/]+)"\)(?:,\s?1)?\)/g;
const HELPER =
  'function __svcBuiltinNamespace(mod){var memo=globalThis[Symbol.for("svc.builtinNamespaces")]??=new WeakMap(),ns=memo.get(mod);return ns||memo.set(mod,ns=__toESM(mod,1)),ns}';

/** A module that reads only `default` of a builtin's namespace gets `{ default: builtin }`: no getter, no descriptor read. */
const DECLARATION = /var (\w+) = __svcBuiltinNamespace\(require\("(node:[a-z_/]+)"\)\);/g;
function defaultsOnly(code) {
  return code.replace(DECLARATION, (whole, name, spec) => {
    const uses = code.match(new RegExp(`\\b${name}\\b`, 'g')).length;
    const defaults = code.match(new RegExp(`\\b${name}\\.default\\b`, 'g'))?.length ?? 0;
    return uses === defaults + 1 ? `var ${name} = { default: require("${spec}") };` : whole;
  });
}

/** `code` (one CommonJS file of the build) with each builtin's namespace shared. */
export function shareBuiltinNamespaces(code) {
  const out = defaultsOnly(code.replace(CALL, (_, spec) => `__svcBuiltinNamespace(require("${spec}"))`));
  // A function declaration, on the first line (commonjs-chunks.mjs puts the directive before it), so no mapped line moves.
  return out.includes('__svcBuiltinNamespace(') ? `${HELPER}${out}` : out;
}
