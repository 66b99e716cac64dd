import { seg } from './path';
import type { ApiClient, Query } from './client';
import { ApiError } from './errors';
import { addSecret } from '../text/redact';
import { paginate, type ListOptions } from './paginate';
import type { WorkItem as WireWorkItem } from '../wire/resources';

const rows = (env: string) => `/v1/environments/${seg(env)}/work`;

/** Header naming the worker on a poll (docs/service.md). */
export const WORKER_ID_HEADER = 'svc-worker-id';
/** Longest long poll the service allows (docs/service.md: block_ms 0..30000). */
export const MAX_BLOCK_MS = 30_000;

/** A row as the worker uses it: the members it fences and routes by are there (the poll checks them). */
export interface WorkItem extends WireWorkItem {
  id: string;
  generation: number;
  status: string;
}

/** The work-queue endpoints (docs/service.md: ack, heartbeat and stop paths); `c` carries the environment key or a session token. */
export const work = {
  list: (c: ApiClient, env: string, query: Query, opts: ListOptions) => paginate<WorkItem>(c, rows(env), query, opts),
  get: async (c: ApiClient, env: string, id: string) => (await c.json<WorkItem>({ method: 'GET', path: `${rows(env)}/${seg(id)}` })).data,
  /** Claims at most one queued row; the HTTP timeout is lifted past the long poll. */
  poll: async (c: ApiClient, env: string, workerId: string, blockMs: number, signal?: AbortSignal): Promise<{ items: WorkItem[] }> => {
    const { data } = await c.json({
      method: 'GET',
      path: `${rows(env)}/poll`,
      query: { block_ms: blockMs },
      headers: { [WORKER_ID_HEADER]: workerId },
      timeoutMs: blockMs + 30_000,
      signal,
      expect: 'any',
    });
    const items = polledItems(data);
    for (const row of items) addSecret(row.secret);
    return { items };
  },
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
 * The rows of a poll answer: `{items}` (docs/service.md), or as the public API this spec resembles answers, one row or
 * nothing (204, an empty body, `null`). Anything else is a body of another shape: exit 9.
 */
function polledItems(data: unknown): WorkItem[] {
  if (data === undefined || data === null) return [];
  if (typeof data === 'object' && !Array.isArray(data)) {
    const o = data as { items?: unknown; id?: unknown };
    if (Array.isArray(o.items)) return o.items as WorkItem[];
    if (typeof o.id === 'string') return [o as WorkItem];
  }
  throw new ApiError({ status: 200, message: 'the service answered a work poll with a body of another shape' });
}

/** The row's credential bundle: base64url JSON whose `sessions_token` is the only member a worker may use. */
export function decodeSecret(secret: string): { sessions_token: string } {
  const bundle = JSON.parse(Buffer.from(secret, 'base64url').toString('utf8')) as { sessions_token?: unknown };
  if (typeof bundle.sessions_token !== 'string') throw new Error('the work row secret has no sessions_token');
  addSecret(bundle.sessions_token);
  return { sessions_token: bundle.sessions_token };
}
