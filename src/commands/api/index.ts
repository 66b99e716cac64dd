import type { Command } from 'commander';
import type { Method } from '../../api/client';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { readData } from '../../input/data';
import { examples, type Kit, type Opts } from '../../cli/action';

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** `-F key=value`: numbers, true/false and null are typed (as in `gh api -F`); everything else is a string. */
function typedField(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

export function parseFields(fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const i = f.indexOf('=');
    if (i <= 0) throw new UsageError(`-F takes key=value (got "${f}")`);
    out[f.slice(0, i)] = typedField(f.slice(i + 1));
  }
  return out;
}

// RFC 9110: a field name is a token; a value has no control characters but tab (CR/LF would split the request).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const HEADER_VALUE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export function parseHeaders(headers: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`-H takes 'Name: value' (got ${JSON.stringify(h)})`);
    const name = h.slice(0, i).trim().toLowerCase();
    if (!HEADER_NAME.test(name)) throw new UsageError(`-H header name ${JSON.stringify(name)} is not a valid HTTP header name`);
    if (name === 'authorization') throw new UsageError('-H cannot set Authorization: use --api-key, SVC_API_KEY or svc auth login');
    const value = h.slice(i + 1);
    if (HEADER_VALUE_CONTROL.test(value)) throw new UsageError(`-H ${name}: the value holds a line break or another control character`);
    out[name] = value.trim();
  }
  return out;
}

export async function runApi(ctx: Ctx, methodArg: string, path: string, opts: Opts): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${methodArg}": use one of ${METHODS.join(', ')}`);
  if (!path.startsWith('/')) throw new UsageError(`the path must start with / (got "${path}")`);
  const fields = parseFields(opts.field ?? []);
  const headers = parseHeaders(opts.header ?? []);
  const hasFields = Object.keys(fields).length > 0;
  let json: unknown;
  let query: Record<string, string> | undefined;
  if (method === 'GET' || method === 'DELETE') {
    if (opts.data !== undefined) throw new UsageError(`--data is not sent with ${method}; use -F for query parameters`);
    if (hasFields) query = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  } else if (opts.data !== undefined || hasFields) {
    const base = opts.data === undefined ? {} : await readData(opts.data, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
    json = hasFields ? { ...(base as object), ...fields } : base;
  }
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  const c = await ctx.api();
  let token: string | undefined;
  do {
    const res = await c.send({ method: method as Method, path, query: { ...query, page_token: token }, json, headers });
    const text = await res.body.text();
    await ctx.out.raw(text);
    token = undefined;
    if (opts.paginate) {
      try {
        token = (JSON.parse(text) as { next_page_token?: string }).next_page_token ?? undefined;
      } catch {
        token = undefined;
      }
    }
  } while (token);
}

export default function build(cmd: Command, kit: Kit): void {
  cmd
    .argument('<method>', 'GET, POST, PATCH, PUT or DELETE')
    .argument('<path>', 'path such as /v1/agents')
    .option('--data <json|@file|@->', 'request body')
    .option('-F, --field <key=value>', 'a body field (query parameter for GET); repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('-H, --header <header>', "an extra header 'Name: value'; repeatable", (v: string, prev: string[] = []) => [...prev, v])
    .option('--paginate', 'follow next_page_token and print every page');
  examples(cmd, [
    'svc api GET /v1/agents',
    'svc api GET /v1/agents -F page_size=100 --paginate',
    'svc api POST /v1/agents --data \'{"name":"a","model":"m"}\'',
  ]);
  cmd.action(kit.action((ctx, [m, p], opts) => runApi(ctx, m, p, opts)));
}
