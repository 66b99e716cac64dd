import { UsageError } from '../runtime/errors';
import type { InStream } from '../runtime/io';
import { LIMITS } from '../wire/limits';
import { jsonSyntaxError, lineColumn } from './position';
import { readInputFile, readStream, tooLarge } from './read';
import { utf8Text } from './utf8';

// Assumption: the spec sets no nesting limit; 128 levels (serde_json's default) is far beyond any real body
// and far below what would overflow the stack when the body is serialized.
export const MAX_DEPTH = 128;

/**
 * Reads a `--data` argument: inline JSON or YAML, `@file` or `@-` (stdin); JSON or YAML by the file's
 * extension, else detected. Reading stops at `limit` bytes (the spec's JSON body limit by default) and on Ctrl-C;
 * bytes that are not UTF-8 are refused, naming the line, never replaced.
 */
export async function readData(arg: string, stdin: InStream, cwd: string, signal?: AbortSignal, limit: number = LIMITS.jsonBody): Promise<unknown> {
  if (arg === '@-') return parseDocument(utf8Text(await readStream(stdin, { what: 'standard input', limit, signal }), 'standard input'), 'standard input');
  if (arg.startsWith('@')) {
    const name = arg.slice(1);
    const ext = /\.(ya?ml|json)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
    return parseDocument(utf8Text(await readInputFile(name, cwd, { what: name, limit, signal }), name), name, ext);
  }
  if (Buffer.byteLength(arg) > limit) throw tooLarge('--data', limit);
  return parseDocument(arg, '--data');
}

/**
 * JSON or YAML (a JSON-looking text that is not JSON is tried as YAML: `{name: x}` is YAML's flow style).
 * Errors give the line and column, never the text: the document may hold a secret.
 */
export async function parseDocument(text: string, name: string, ext = ''): Promise<unknown> {
  if (ext === 'json' || (ext === '' && /^\s*[[{"]/.test(text))) {
    try {
      return checkDepth(JSON.parse(text), name);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      if (ext === 'json') throw new UsageError(`${name} is not valid JSON: ${jsonSyntaxError(text)}`);
    }
  }
  const { loadYaml } = await import('../output/yaml');
  const { parse } = await loadYaml();
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    if (e instanceof RangeError || /Maximum call stack/.test((e as Error).message)) throw new UsageError(`${name} is ${tooDeep()}`);
    throw new UsageError(`${name} is not valid ${ext === 'yaml' || ext === 'yml' ? 'YAML' : 'JSON or YAML'}: ${yamlReason(text, e)}`);
  }
  return checkDepth(doc, name);
}

function yamlReason(text: string, e: unknown): string {
  const { code, linePos, pos } = e as { code?: string; linePos?: { line: number; col: number }[]; pos?: number[] };
  const where = linePos?.[0] ? `line ${linePos[0].line}, column ${linePos[0].col}` : pos ? lineColumn(text, pos[0]) : undefined;
  const what = code ? code.toLowerCase().replace(/_/g, ' ') : 'syntax error';
  return where ? `${what} at ${where}` : what;
}

const tooDeep = (): string => `nested more than ${MAX_DEPTH} levels deep`;

/** Refuses a document nested deeper than MAX_DEPTH (walked without recursion). */
export function checkDepth<T>(doc: T, name: string): T {
  const stack: [unknown, number][] = [[doc, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_DEPTH) throw new UsageError(`${name} is ${tooDeep()}`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return doc;
}

/** Reads `--data` that must be a JSON object, with flag values merged over it. */
export async function readBody(
  data: string | undefined,
  flags: Record<string, unknown>,
  stdin: InStream,
  cwd: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const base = data === undefined ? {} : await readData(data, stdin, cwd, signal);
  if (typeof base !== 'object' || base === null || Array.isArray(base)) throw new UsageError('--data must hold a JSON or YAML object');
  const body = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) body[k] = v;
  return body;
}
