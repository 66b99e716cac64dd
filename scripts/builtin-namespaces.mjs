// esbuild turns `import fs from 'node:fs'` in a CommonJS output into `__toESM(require("node:fs"), 1)`: a fresh object
// with a getter (a closure, a descriptor) for each of the builtin's properties, made again by every module that imports
// it. conf, atomically and stubborn-fs each import node:process (85 properties) and node:fs (106): on `agents get`
// that was ~1 MB of young-generation allocation in all, enough for a second scavenge (scripts/build/PERF.md,
// "One namespace per builtin"). A builtin is whole once required, so its namespace is made once per process and
// shared, across the package's chunks too; a package's own CommonJS exports (which a require cycle may still be
// filling) keep esbuild's own.

// `, 1` (node mode) when the importer is an ES module of a package of type module; for a builtin, which has no
// `__esModule`, both make the same namespace.
const CALL = /__toESM\(require\("(node:[a-z_/]+)"\)(?:,\s?1)?\)/g;
const HELPER =
  'function __svcBuiltinNamespace(mod){var memo=globalThis[Symbol.for("svc.builtinNamespaces")]??=new WeakMap(),ns=memo.get(mod);return ns||memo.set(mod,ns=__toESM(mod,1)),ns}';

/**
 * A module that imports a builtin by default only (`import fs from 'node:fs'`: conf, atomically and stubborn-fs)
 * reads nothing of its namespace but `default`. Such a namespace is `{ default: builtin }`: no getter at all, and no
 * property descriptor read, which for node:fs alone loads Node's internal/fs/dir (~1.5 ms; scripts/build/PERF.md,
 * "Only the chunks a command runs"). A namespace read any other way (a named import, passed on) stays whole.
 */
const DECLARATION = /var ([\w$]+) = __svcBuiltinNamespace\(require\("(node:[a-z_/]+)"\)\);/g;
function defaultsOnly(code) {
  return code.replace(DECLARATION, (whole, name, spec) => {
    if (!/^[\w]+$/.test(name)) return whole;
    const uses = code.match(new RegExp(`\\b${name}\\b`, 'g')).length;
    const defaults = code.match(new RegExp(`\\b${name}\\.default\\b`, 'g'))?.length ?? 0;
    return uses === defaults + 1 ? `var ${name} = { default: require("${spec}") };` : whole;
  });
}

/** `code` (one CommonJS file of the build) with each builtin's namespace shared; the count of calls rewritten. */
export function shareBuiltinNamespaces(code) {
  let count = 0;
  const shared = code.replace(CALL, (_, spec) => {
    count++;
    return `__svcBuiltinNamespace(require("${spec}"))`;
  });
  if (!count) return { code, count };
  const out = defaultsOnly(shared);
  if (!out.includes('__svcBuiltinNamespace(')) return { code: out, count };
  // A function declaration, hoisted: put after the code, before the source map's comment, so no mapped line moves.
  const map = /\n\/\/# sourceMappingURL=\S+\s*$/.exec(out);
  const at = map ? map.index : out.length;
  return { code: `${out.slice(0, at)}\n${HELPER}${out.slice(at)}`, count };
}
