// esbuild wraps each lazily initialised module in an object literal whose one method bears the module's path:
//   var init_x = __esm({ "src/x.ts"() { … } });   var require_y = __commonJS({ "node_modules/y/index.js"(exports, module) { … } });
// and its helpers call the method through `fn[Object.getOwnPropertyNames(fn)[0]]`. The literal exists to name the
// function in stack traces; each one's unique key also gives it a map of its own, and V8 threads every such map off the
// same root, one transition more each: 660 modules made ~1,200 maps at each start of the executable, their transition
// arrays copied on every insert (scripts/build/PERF.md, "Plain module wrappers"). Here each wrapper is the function
// itself. Works on esbuild's unminified CommonJS output, where each wrapper starts on a line of its own at the top
// level and its method ends with the first `  }` line followed by `});`.

const OPEN = /^(var [\w$]+ = __(?:esm|commonJS)\()\{\n {2}"[^"\n]+"\(([^)\n]*)\) \{\n/gm;
const CLOSE = '\n  }\n});';
const HELPERS = [
  ['(0, fn[__getOwnPropNames(fn)[0]])(fn = 0)', '(0, fn)(fn = 0)'],
  ['(0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod)', '(0, cb)((mod = { exports: {} }).exports, mod)'],
];

/** `code` with each module wrapper a plain function, and the count; throws where the shape is not esbuild's. */
export function plainWrappers(code) {
  let out = '';
  let at = 0;
  let count = 0;
  for (const m of code.matchAll(OPEN)) {
    if (m.index < at) throw new Error(`plain-wrappers: a wrapper starts inside another at ${m.index}`);
    // The body from the newline that opens it (an empty body ends at once).
    const body = m.index + m[0].length - 1;
    const end = code.indexOf(CLOSE, body);
    if (end === -1) throw new Error(`plain-wrappers: no end for the wrapper at ${m.index}`);
    out += code.slice(at, m.index) + `${m[1]}function(${m[2]}) {` + code.slice(body, end) + '\n});';
    at = end + CLOSE.length;
    count++;
  }
  out += code.slice(at);
  for (const [from, to] of HELPERS) {
    if (!out.includes(from)) throw new Error(`plain-wrappers: esbuild's helper no longer reads "${from}"`);
    out = out.replace(from, to);
  }
  if (/__(?:esm|commonJS)\(\{/.test(out)) throw new Error('plain-wrappers: a wrapper of another shape is left');
  return { code: out, count };
}
