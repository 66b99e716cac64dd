/**
 * What a rule looks at, gathered for one awaited call: the call's tool and input and thread, the session's metadata,
 * and (read once per ID, only when some rule asks for them) its agent and its environment.
 */
import type { ApiClient } from '../api/client';
import { environments } from '../api/environments';
import { ApiError } from '../api/errors';
import { agents, type Obj } from '../api/resources';
import { isObject } from '../wire/is-object';
import type { Call } from './match';
import type { Policy } from './policy';

/** An awaited call as the derived `session.requires_action` (or the `agent.tool_use` itself) carries it. */
export interface Asked {
  /** The `agent.tool_use` event's ID. */
  eventId: string;
  tool: string;
  input: unknown;
  threadId?: string;
  processedAt?: string;
}

/** The call of an `agent.tool_use` that asks for confirmation, or undefined for any other event. */
export function askedOf(e: { id: string; type: string; data?: unknown; session_thread_id?: unknown; processed_at?: unknown }): Asked | undefined {
  const d = isObject(e.data) ? e.data : {};
  if (e.type !== 'agent.tool_use' || d.permission !== 'ask') return undefined;
  return {
    eventId: e.id,
    tool: String(d.name ?? ''),
    input: d.input,
    ...(typeof e.session_thread_id === 'string' ? { threadId: e.session_thread_id } : {}),
    ...(typeof e.processed_at === 'string' ? { processedAt: e.processed_at } : {}),
  };
}

export class Facts {
  private readonly agents = new Map<string, Promise<Obj | undefined>>();
  private readonly environments = new Map<string, Promise<Obj | undefined>>();
  private readonly needAgent: boolean;
  private readonly needEnvironment: boolean;

  constructor(
    private readonly client: ApiClient,
    policy: Policy,
  ) {
    this.needAgent = policy.rules.some((r) => r.match.agent !== undefined || r.match.labels !== undefined);
    this.needEnvironment = policy.rules.some((r) => r.match.environment !== undefined);
  }

  async call(session: Obj, asked: Asked): Promise<Call> {
    const agentId = typeof session.agent_id === 'string' ? session.agent_id : undefined;
    const envId = typeof session.environment_id === 'string' ? session.environment_id : undefined;
    const agent = this.needAgent && agentId ? await cached(this.agents, agentId, () => agents.get(this.client, agentId)) : undefined;
    const env = this.needEnvironment && envId ? await cached(this.environments, envId, () => environments.get(this.client, envId)) : undefined;
    return {
      tool: asked.tool,
      input: asked.input,
      agent: { id: agentId, name: nameOf(agent), metadata: isObject(agent?.metadata) ? agent.metadata : {} },
      metadata: isObject(session.metadata) ? session.metadata : {},
      environment: { id: envId, name: nameOf(env) },
      thread: asked.threadId === undefined ? 'main' : 'child',
    };
  }
}

const nameOf = (o: Obj | undefined) => (typeof o?.name === 'string' ? o.name : undefined);

/** Read once per ID; a resource that is gone has no name (a rule naming one does not match); other failures are not kept. */
function cached(map: Map<string, Promise<Obj | undefined>>, id: string, read: () => Promise<Obj>): Promise<Obj | undefined> {
  let p = map.get(id);
  if (!p) {
    p = read().catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) return undefined;
      map.delete(id);
      throw e;
    });
    map.set(id, p);
  }
  return p;
}
