import type { Obj } from '../api/resources';
import { isObject } from '../wire/is-object';
import type { Body } from './types';
import { readSecretMap, type SecretSource } from './secrets';
import type { Doc } from './types';

type Server = Record<string, unknown>;
const identity = (s: Server) => JSON.stringify([s.name, s.type, s.url]);

/** A server the live agent has with the same identity keeps its stored headers when they are omitted (docs/service.md). */
export const serverIn = (live: Obj, s: Server): boolean =>
  Array.isArray(live.mcp_servers) && live.mcp_servers.some((l) => isObject(l) && identity(l) === identity(s));

/**
 * An agent's MCP server headers: write-only, a literal value or `{value_from}` in the file. They are sent on
 * create, for a server new to the agent, and with --update-secrets; otherwise left out, which keeps them.
 */
export class McpHeaders {
  private readonly servers: Server[];
  /** Read values by server identity: only those a write will send. */
  private readonly values = new Map<string, Record<string, unknown>>();
  readonly present: boolean;

  constructor(
    private readonly d: Doc,
    private readonly src: Omit<SecretSource, 'dir'>,
  ) {
    this.servers = (Array.isArray(d.body.mcp_servers) ? d.body.mcp_servers : []).filter(isObject);
    this.present = this.servers.some((s) => isObject(s.headers) && Object.keys(s.headers).length > 0);
  }

  /** Reads, before any write, the header values of the servers `send` selects. */
  async prepare(send: (s: Server) => boolean): Promise<void> {
    for (const [i, s] of this.servers.entries()) {
      if (isObject(s.headers) && send(s))
        this.values.set(identity(s), await readSecretMap(s.headers, `${this.d.where}: mcp_servers[${i}].headers`, { ...this.src, dir: this.d.dir }));
    }
  }

  /** `body` with each server's prepared headers; a server without them is sent without headers. */
  withValues(body: Body): Body {
    if (!Array.isArray(body.mcp_servers)) return body;
    const mcp_servers = (body.mcp_servers as Server[]).map(({ headers: _, ...rest }) => {
      const v = this.values.get(identity(rest));
      return v ? { ...rest, headers: v } : rest;
    });
    return { ...body, mcp_servers };
  }
}
