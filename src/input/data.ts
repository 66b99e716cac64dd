import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors';
import { readAll, type InStream } from '../io';

/**
 * Reads a `--data` argument: inline JSON, `@file` or `@-` (stdin); JSON or YAML by the file's
 * extension, else detected from the first character.
 */
export async function readData(arg: string, stdin: InStream, cwd: string): Promise<unknown> {
  let text: string;
  let name = '--data';
  let ext = '';
  if (arg === '@-') {
    text = (await readAll(stdin)).toString('utf8');
    name = 'standard input';
  } else if (arg.startsWith('@')) {
    const file = resolve(cwd, arg.slice(1));
    name = arg.slice(1);
    ext = /\.(ya?ml|json)$/i.exec(file)?.[1]?.toLowerCase() ?? '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  } else {
    text = arg;
  }
  return parseDocument(text, name, ext);
}

export async function parseDocument(text: string, name: string, ext = ''): Promise<unknown> {
  const asJson = ext === 'json' || (ext === '' && /^\s*[[{"]/.test(text));
  if (asJson) {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${name} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const { loadYaml } = await import('../output/yaml');
  const { parse } = await loadYaml();
  try {
    return parse(text);
  } catch (e) {
    throw new UsageError(`${name} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Reads `--data` that must be a JSON object, with flag values merged over it. */
export async function readBody(data: string | undefined, flags: Record<string, unknown>, stdin: InStream, cwd: string): Promise<Record<string, unknown>> {
  const base = data === undefined ? {} : await readData(data, stdin, cwd);
  if (typeof base !== 'object' || base === null || Array.isArray(base)) throw new UsageError('--data must hold a JSON or YAML object');
  const body = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) body[k] = v;
  return body;
}
