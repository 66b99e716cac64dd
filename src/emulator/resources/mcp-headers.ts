import { invalidParam } from '../errors';
import type { Field } from '../validate';

/** An MCP server entry (docs/service.md: Agents): `{type:"url", name, url, headers?}`. */
export const MCP_SERVER: Field = {
  type: 'object',
  fields: {
    type: { type: 'string', required: true, enum: ['url'] },
    name: { type: 'string', required: true },
    url: { type: 'string', required: true },
    headers: { type: 'map' },
  },
};

export type McpServer = { type: string; name: string; url: string; headers?: Record<string, string> };
/** Stored headers by server identity (see identity), kept apart because they are write-only. */
export type StoredHeaders = Record<string, Record<string, string>>;

/** A server keeps its stored headers only while its name, type and URL are unchanged (config rule 7). */
const identity = (s: McpServer): string => JSON.stringify([s.name, s.type, s.url]);

/** Header names differing only in case are rejected (status not stated, docs/service.md: 400 for a bad field). */
export function checkHeaderNames(servers: McpServer[] | undefined, param: string): void {
  (servers ?? []).forEach((s, i) => {
    const seen = new Set<string>();
    for (const k of Object.keys(s.headers ?? {})) {
      if (seen.has(k.toLowerCase())) invalidParam(`${param}[${i}].headers`, `header names differing only in case: ${k}`);
      seen.add(k.toLowerCase());
    }
  });
}

/**
 * Splits write-only headers from the servers (config rule 7): omitted or `{}` headers keep what is stored
 * for an unchanged identity; non-empty headers replace them as a whole, and a key
 * whose value is "" is deleted, i.e. not stored. `stored` is {} on create.
 */
export function splitHeaders(servers: McpServer[], stored: StoredHeaders): { servers: McpServer[]; headers: StoredHeaders } {
  const headers: StoredHeaders = {};
  const out = servers.map(({ headers: given, ...rest }) => {
    const id = identity(rest);
    const kept = Object.keys(given ?? {}).length === 0;
    headers[id] = kept ? { ...(stored[id] ?? {}) } : Object.fromEntries(Object.entries(given!).filter(([, v]) => v !== ''));
    return rest;
  });
  return { servers: out, headers };
}
