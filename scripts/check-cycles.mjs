// Fails when src/ has a runtime import cycle: static imports that are not type-only (`import type`, or every
// name marked `type`). Lazy `import()` calls are listed apart: they run later, so they cannot leave a module
// half-initialised, but a cycle through them is still reported as a note.
// Also fails when a layer below the commands imports from them or from the command framework (layers run one way).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..', 'src');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(p);
  }
})(root);

function target(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s+['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

function edges(file, lazy) {
  const src = readFileSync(file, 'utf8');
  const out = new Set();
  if (lazy) {
    for (const m of src.matchAll(DYNAMIC)) out.add(target(file, m[1]));
  } else {
    for (const m of src.matchAll(STATIC)) {
      if (m[2]) continue;
      const names = /^\{([^}]*)\}$/.exec(m[3].trim());
      if (names && names[1].split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
      out.add(target(file, m[4]));
    }
    for (const m of src.matchAll(BARE)) out.add(target(file, m[1]));
  }
  out.delete(undefined);
  return out;
}

function cycles(graph) {
  // Tarjan's strongly connected components: a component of more than one module is a cycle.
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    found = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) found.push(comp);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** The folders below the commands: nothing in them imports src/commands or src/cli, not even a type or lazily. */
const BELOW_COMMANDS = [
  'apply',
  'follow',
  'selection',
  'bulk',
  'watch',
  'api',
  'config',
  'output',
  'live',
  'worker',
  'emulator',
  'text',
  'wire',
  'input',
  'completion',
  'fs',
  'stats',
  'listen',
  'approve',
  'top',
  'update',
  'startup',
];
const ABOVE = ['commands', 'cli'].map((d) => join(root, d) + '/');
const under = (file, dirs) => dirs.some((d) => file.startsWith(d));

function upward(file) {
  const src = readFileSync(file, 'utf8');
  const specs = [...src.matchAll(STATIC)]
    .map((m) => m[4])
    .concat(
      [...src.matchAll(BARE)].map((m) => m[1]),
      [...src.matchAll(DYNAMIC)].map((m) => m[1]),
    );
  return specs.map((spec) => target(file, spec)).filter((t) => t && under(t, ABOVE));
}

const rel = (f) => relative(root, f);
const below = BELOW_COMMANDS.map((d) => join(root, d) + '/');
const wrongWay = files.filter((f) => under(f, below)).flatMap((f) => upward(f).map((t) => [f, t]));
for (const [f, t] of wrongWay) console.error(`error: ${rel(f)} imports ${rel(t)}: layers below the commands never import src/commands or src/cli`);
const eager = new Map(files.map((f) => [f, edges(f, false)]));
const bad = cycles(eager);
const withLazy = new Map(files.map((f) => [f, new Set([...eager.get(f), ...edges(f, true)])]));
const lazyOnly = cycles(withLazy).filter((c) => !bad.some((b) => b.every((m) => c.includes(m))));
for (const c of lazyOnly) console.log(`note: a cycle only through lazy import(): ${c.map(rel).sort().join(', ')}`);
for (const c of bad) console.error(`error: runtime import cycle in src/: ${c.map(rel).sort().join(', ')}`);
if (bad.length || wrongWay.length) process.exit(1);
console.log(`no runtime import cycle in src/ (${files.length} modules), and no layer below the commands imports them`);
