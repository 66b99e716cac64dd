import { seg } from './path';
import type { ApiClient, Query } from './client';
import { paginate, type ListOptions } from './paginate';

export type Obj = Record<string, unknown> & { id?: string };

/** The common shapes of API-NOTES.md: list, get, create, update (PATCH), delete, archive. */
export function crud(path: string) {
  return {
    path,
    itemPath: (id: string) => `${path}/${seg(id)}`,
    list: (c: ApiClient, query: Query, opts: ListOptions) => paginate<Obj>(c, path, query, opts),
    get: async (c: ApiClient, id: string, query?: Query) => (await c.json<Obj>({ method: 'GET', path: `${path}/${seg(id)}`, query })).data,
    create: async (c: ApiClient, body: unknown, idempotencyKey: string) => (await c.json<Obj>({ method: 'POST', path, json: body, idempotencyKey })).data,
    update: async (c: ApiClient, id: string, body: unknown) => (await c.json<Obj>({ method: 'PATCH', path: `${path}/${seg(id)}`, json: body })).data,
    /** 204, or 200 with the object or `{id, type: "<x>_deleted"}` (API-NOTES: clients accept either). */
    delete: async (c: ApiClient, id: string) =>
      (await c.json<Obj | undefined>({ method: 'DELETE', path: `${path}/${seg(id)}`, expect: 'object-or-none' })).data,
    archive: async (c: ApiClient, id: string) =>
      (await c.json<Obj | undefined>({ method: 'POST', path: `${path}/${seg(id)}/archive`, expect: 'object-or-none' })).data,
  };
}

export type Crud = ReturnType<typeof crud>;

export const agents = {
  ...crud('/v1/agents'),
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<Obj>(c, `/v1/agents/${seg(id)}/versions`, {}, opts),
};
