import type { Command } from 'commander';
import type { Method } from '../../api/client';
import { readText } from '../../api/http';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { readData } from '../../input/data';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { DATA_FLAGS } from '../../cli/verbs/body';
import { printsText } from '../../cli/text-output';

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

/** `svc api [METHOD] PATH`: what to send, checked before anything is. */
export interface ApiOptions {
  method: Method;
  path: string;
  /** `--data`, read when the command runs. */
  data?: string;
  fields: Record<string, unknown>;
  headers: Record<string, string>;
  paginate: boolean;
}

/**
 * METHOD PATH, or PATH alone (or with `-X METHOD`) as `gh api` takes it: GET, or POST when a body (`--data`, `-F`)
 * is given.
 */
/** `svc api`'s flags. */
export const API_FLAGS = flagTable({
  method: { flags: '-X, --method <method>', description: 'the method, when only the path is given' },
  data: { ...DATA_FLAGS.data, description: 'request body' },
  field: { flags: '-F, --field <key=value>', description: 'a body field (query parameter for GET); repeatable', repeat: true },
  header: { flags: '-H, --header <header>', description: "an extra header 'Name: value'; repeatable", repeat: true },
  paginate: { flags: '--paginate', description: 'follow next_page_token and print every page' },
});
type ApiFlags = FlagsOf<typeof API_FLAGS>;

export function parseApi([first, second]: string[], flags: ApiFlags): ApiOptions {
  const positional = second === undefined ? undefined : first;
  const path = second ?? first;
  const explicit = flags.method;
  if (positional !== undefined && explicit !== undefined && positional.toUpperCase() !== explicit.toUpperCase())
    throw new UsageError(`the method is given twice: ${positional} and -X ${explicit}`);
  const fields = parseFields(flags.field ?? []);
  const hasBody = flags.data !== undefined || Object.keys(fields).length > 0;
  const methodArg = positional ?? explicit ?? (hasBody ? 'POST' : 'GET');
  const method = methodArg.toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${methodArg}": use one of ${METHODS.join(', ')}`);
  if (!path.startsWith('/')) throw new UsageError(`the path must start with / (got "${path}")`);
  if ((method === 'GET' || method === 'DELETE') && flags.data !== undefined)
    throw new UsageError(`--data is not sent with ${method}; use -F for query parameters`);
  if (flags.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  const headers = parseHeaders(flags.header ?? []);
  return { method: method as Method, path, data: flags.data, fields, headers, paginate: Boolean(flags.paginate) };
}

export async function runApi(ctx: Ctx, o: ApiOptions): Promise<void> {
  const hasFields = Object.keys(o.fields).length > 0;
  let json: unknown;
  let query: Record<string, string> | undefined;
  if (o.method === 'GET' || o.method === 'DELETE') {
    if (hasFields) query = Object.fromEntries(Object.entries(o.fields).map(([k, v]) => [k, String(v)]));
  } else if (o.data !== undefined || hasFields) {
    const base = o.data === undefined ? {} : await readData(o.data, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
    json = hasFields ? { ...(base as object), ...o.fields } : base;
  }
  const c = await ctx.api();
  let token: string | undefined;
  do {
    const res = await c.send({ method: o.method, path: o.path, query: { ...query, page_token: token }, json, headers: o.headers });
    const text = await readText(res.body);
    await ctx.out.raw(text);
    token = undefined;
    if (o.paginate) {
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
    .argument('<method-or-path>', 'GET, POST, PATCH, PUT or DELETE, then the path; or the path alone (GET, or POST with a body)')
    .argument('[path]', 'path such as /v1/agents');
  addFlags(cmd, API_FLAGS);
  examples(cmd, [
    'svc api /v1/agents',
    'svc api GET /v1/agents -F page_size=100 --paginate',
    'svc api /v1/agents --data \'{"name":"a","model":"m"}\'',
    'svc api -X DELETE /v1/agents/AGENT_ID',
  ]);
  printsText(cmd, 'it prints the response body as received (--jq filters it)', { json: true });
  cmd.action(kit.verb(parseApi, runApi));
}
