import { existsSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Ctx } from '../runtime/context';
import { UsageError } from '../runtime/errors';
import { isObject } from '../wire/is-object';
import { readInputFile, readStream } from '../input/read';
import { utf8Text } from '../input/utf8';
import { LIMITS } from '../wire/limits';
import { MAX_DEPTH } from '../input/data';
import { isKind, KIND_SPECS, KINDS, type Kind } from './kinds/index';
import type { Body, Doc } from './types';

const CONFIG_FILE = /\.(ya?ml|json)$/i;
/** Members the service manages: dropped, so `svc <group> get -o yaml` output applies as it is. */
const SERVER_MANAGED = ['id', 'created_at', 'updated_at', 'archived_at'];

/**
 * The files of one `-f PATH`: the file itself, or a folder's `*.yaml|*.yml|*.json` (hidden ones left out),
 * recursively, sorted by path. In a folder only regular files are read (a symlink to one included): a FIFO
 * or a device named `x.yaml` would wait forever or never end, so it is skipped with a note, as symlinked
 * folders are skipped.
 */
function filesOf(path: string, cwd: string, note: (line: string) => void): string[] {
  const full = resolve(cwd, path);
  const st = statOrRefuse(full, path);
  if (!st.isDirectory()) return [full];
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new UsageError(`cannot read folder ${relative(cwd, dir) || dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    for (const e of entries) {
      // Hidden entries (.git, .github/workflows/*.yml) are never configuration documents.
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!CONFIG_FILE.test(e.name)) continue;
      else if (e.isFile()) out.push(p);
      else if (e.isSymbolicLink() && isFileBehind(p)) out.push(p);
      else note(`note: skipped ${relative(cwd, p) || p}: not a regular file`);
    }
  };
  walk(full);
  return out.sort();
}

function isFileBehind(link: string): boolean {
  try {
    return statSync(link).isFile();
  } catch {
    return false;
  }
}

function statOrRefuse(full: string, shown: string): Stats {
  try {
    return statSync(full);
  } catch (e) {
    throw new UsageError(`cannot read ${shown}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * The default set name: the first PATH's folder (a folder itself; a file's folder; `-`: the working folder)
 * as a path from the root of its git repository (`prod/config`), or its absolute path outside one. A bare
 * folder name would make `staging/config` and `prod/config` one set, and a prune of one archive the other.
 */
export function defaultSetName(paths: string[], cwd: string): string {
  const first = paths[0] === '-' ? cwd : resolve(cwd, paths[0]);
  const folder = paths[0] === '-' || statSync(first, { throwIfNoEntry: false })?.isDirectory() ? first : dirname(first);
  const root = repoRoot(folder);
  if (root === undefined) return folder;
  return relative(root, folder).split(sep).join('/') || basename(root);
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file in a worktree or submodule). */
function repoRoot(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Every document of every PATH, read, parsed and checked (kind, name, known fields, no kind+name twice)
 * before anything is sent: a bad document anywhere stops the apply before its first write.
 */
export async function readDocs(ctx: Ctx, paths: string[]): Promise<Doc[]> {
  const docs: Doc[] = [];
  const limit = (what: string) => ({ what, limit: LIMITS.jsonBody, signal: ctx.io.signal });
  for (const path of paths) {
    if (path === '-') {
      const bytes = await readStream(ctx.io.stdin, limit('standard input'));
      docs.push(...(await parseFile(utf8Text(bytes, 'standard input'), 'standard input', ctx.io.cwd)));
      continue;
    }
    for (const file of filesOf(path, ctx.io.cwd, (line) => void ctx.msg(line))) {
      const shown = relative(ctx.io.cwd, file) || file;
      const bytes = await readInputFile(file, ctx.io.cwd, limit(shown));
      docs.push(...(await parseFile(utf8Text(bytes, shown), shown, dirname(file))));
    }
  }
  const seen = new Map<string, Doc>();
  for (const d of docs) {
    const key = `${d.kind}\0${d.name}`;
    const first = seen.get(key);
    if (first) throw new UsageError(`${d.where}: ${d.kind} "${d.name}" is already defined in ${first.where}`);
    seen.set(key, d);
  }
  return docs;
}

/** The documents of one file (YAML, several separated by `---`; JSON is YAML too), with file and line in errors. */
async function parseFile(text: string, file: string, dir: string): Promise<Doc[]> {
  const { loadYaml } = await import('../output/yaml');
  const { parseAllDocuments, LineCounter } = await loadYaml();
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: lines });
  const list = Array.isArray(parsed) ? parsed : [];
  const out: Doc[] = [];
  list.forEach((yamlDoc, i) => {
    const err = yamlDoc.errors[0];
    if (err) {
      const at = err.linePos?.[0];
      throw new UsageError(`${file}${at ? ` line ${at.line}` : ''}: not valid YAML: ${err.message.split('\n')[0]}`);
    }
    const start = (yamlDoc.contents?.range?.[0] ?? yamlDoc.range[0]) as number;
    const where = `${file}${list.length > 1 ? ` document ${i + 1}` : ''} (line ${lines.linePos(start).line})`;
    let data: unknown;
    try {
      data = yamlDoc.toJS();
    } catch (e) {
      // The yaml package refuses an alias bomb (aliases that expand exponentially) with a ReferenceError.
      if (e instanceof ReferenceError) throw new UsageError(`${where}: too many YAML aliases (an alias bomb?)`);
      throw e;
    }
    if (data === null || data === undefined) return;
    checkTree(data, where);
    out.push(toDoc(data, where, dir));
  });
  return out;
}

/**
 * Refuses a document that is not a tree: an alias inside its own anchor makes a cycle that no JSON body can
 * hold. Shared values (an alias used twice) are fine. Also refuses nesting deeper than any body needs.
 */
function checkTree(data: unknown, where: string): void {
  const onPath = new Set<object>();
  const stack: Array<{ v: unknown; depth: number; leave?: boolean }> = [{ v: data, depth: 1 }];
  while (stack.length) {
    const { v, depth, leave } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (leave) {
      onPath.delete(v);
      continue;
    }
    if (onPath.has(v)) throw new UsageError(`${where}: a YAML alias refers to a value that contains it (an alias cycle)`);
    if (depth > MAX_DEPTH) throw new UsageError(`${where}: nested more than ${MAX_DEPTH} levels deep`);
    onPath.add(v);
    stack.push({ v, depth, leave: true });
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
}

function toDoc(data: unknown, where: string, dir: string): Doc {
  if (!isObject(data)) throw new UsageError(`${where}: a document must be an object with kind and name`);
  const { kind, ...body } = data as Body;
  if (kind === undefined) throw new UsageError(`${where}: missing kind (one of ${KINDS.join(', ')})`);
  if (!isKind(kind)) throw new UsageError(`${where}: unknown kind ${JSON.stringify(kind)} (one of ${KINDS.join(', ')})`);
  return checkedDoc(kind, body, where, dir, true);
}

/**
 * A document of a known kind, without server-managed members, with a name and, when `strict`, no member
 * the service would reject as unknown. The per-group `apply FILE` verbs are not strict: they take what
 * `get -o yaml` printed, unknown members of the service's objects included.
 */
export function checkedDoc(kind: Kind, data: Body, where: string, dir: string, strict: boolean): Doc {
  const spec = KIND_SPECS[kind];
  const body: Body = { ...data };
  for (const k of [...SERVER_MANAGED, ...(spec.readOnly ?? [])]) delete body[k];
  if (typeof body.name !== 'string' || body.name === '') throw new UsageError(`${where} needs a "name": apply finds the resource by it`);
  if (strict) {
    const known = [...spec.fields, ...(spec.applyFields ?? [])];
    for (const k of Object.keys(body)) {
      if (!known.includes(k)) throw new UsageError(`${where}: unknown field "${k}" in ${kind} "${body.name}" (known: ${known.join(', ')})`);
    }
  }
  try {
    spec.check?.(body);
  } catch (e) {
    throw e instanceof UsageError ? new UsageError(`${where}: ${e.message}`) : e;
  }
  return { kind, name: body.name, body, where, dir };
}
