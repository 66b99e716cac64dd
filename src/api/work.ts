import type { ApiClient, Query } from './client';
import { paginate, type ListOptions } from './paginate';
import type { Obj } from './resources';

const seg = encodeURIComponent;
const rows = (env: string) => `/v1/environments/${seg(env)}/work`;

/** Header naming the worker on a poll (API-NOTES). */
export const WORKER_ID_HEADER = 'svc-worker-id';
/** Longest long poll the service allows (API-NOTES: block_ms 0..30000). */
export const MAX_BLOCK_MS = 30_000;

export interface WorkItem extends Obj {
  id: string;
  generation: number;
  status: string;
  environment_id?: string;
  session_id?: string;
  lease_ttl_ms?: number;
  /** Only on the claiming poll response; never log or persist it. */
  secret?: string;
}

/** The work-queue endpoints (API-NOTES: ack, heartbeat and stop paths); `c` carries the environment key or a session token. */
export const work = {
  list: (c: ApiClient, env: string, query: Query, opts: ListOptions) => paginate<WorkItem>(c, rows(env), query, opts),
  get: async (c: ApiClient, env: string, id: string) => (await c.json<WorkItem>({ method: 'GET', path: `${rows(env)}/${seg(id)}` })).data,
  /** Claims at most one queued row; the HTTP timeout is lifted past the long poll. */
  poll: async (c: ApiClient, env: string, workerId: string, blockMs: number, signal?: AbortSignal) =>
    (
      await c.json<unknown>({
        method: 'GET',
        path: `${rows(env)}/poll`,
        query: { block_ms: blockMs },
        headers: { [WORKER_ID_HEADER]: workerId },
        timeoutMs: blockMs + 30_000,
        signal,
      })
    ).data,
  ack: async (c: ApiClient, env: string, id: string, generation: number, signal?: AbortSignal) =>
    (await c.json<WorkItem>({ method: 'POST', path: `${rows(env)}/${seg(id)}/ack`, json: { generation }, signal })).data,
  heartbeat: async (c: ApiClient, env: string, id: string, generation: number, signal?: AbortSignal) =>
    (await c.json<WorkItem>({ method: 'POST', path: `${rows(env)}/${seg(id)}/heartbeat`, json: { generation }, signal })).data,
  stop: async (c: ApiClient, env: string, id: string, generation: number, finalStatus?: 'completed', signal?: AbortSignal) =>
    (
      await c.json<WorkItem>({
        method: 'POST',
        path: `${rows(env)}/${seg(id)}/stop`,
        json: finalStatus ? { generation, final_status: finalStatus } : { generation },
        signal,
      })
    ).data,
};

/**
 * The rows a poll answered. The spec's reading is `{items}` (API-NOTES: work poll); a service may answer one
 * bare row, or nothing at all (an empty body, `null`, 204) when the queue is empty (API-NOTES: shapes to tolerate).
 */
export function polledItems(answer: unknown): WorkItem[] {
  if (answer === undefined || answer === null || typeof answer !== 'object') return [];
  const a = answer as { items?: unknown; id?: unknown };
  if (Array.isArray(a.items)) return a.items.filter((x): x is WorkItem => typeof x === 'object' && x !== null);
  return typeof a.id === 'string' ? [answer as WorkItem] : [];
}

/** The row's credential bundle: base64url JSON whose `sessions_token` is the only member a worker may use. */
export function decodeSecret(secret: string): { sessions_token: string } {
  const bundle = JSON.parse(Buffer.from(secret, 'base64url').toString('utf8')) as { sessions_token?: unknown };
  if (typeof bundle.sessions_token !== 'string') throw new Error('the work row secret has no sessions_token');
  return { sessions_token: bundle.sessions_token };
}
