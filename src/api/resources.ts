import { seg } from './path';
import type { ApiClient, Query } from './client';
import { ApiError } from './errors';
import { RESOURCES, type ResourceEntry } from './manifest';
import { paginate, type ListOptions, type Page } from './paginate';
import type { Agent, WireObject } from '../wire/resources';

/** An object of the service whose shape a caller does not read (passed through untouched). */
export type Obj = WireObject;

/** The common shapes of docs/service.md for one resource of the manifest: list, get, create, update (PATCH), delete, archive. */
export function crud<T extends WireObject = WireObject>(resource: ResourceEntry) {
  const path = resource.path;
  return {
    entry: resource,
    path,
    itemPath: (id: string) => `${path}/${seg(id)}`,
    list: (c: ApiClient, query: Query, opts: ListOptions) => paginate<T>(c, path, query, opts),
    /** One page with the response's status and headers (a probe that also reads the service's clock). */
    page: async (c: ApiClient, query: Query) => {
      const res = await c.json<Page<T>>({ method: 'GET', path, query });
      if (!Array.isArray(res.data?.items))
        throw new ApiError({ status: res.status, message: `the service answered ${res.status} without items, but GET ${path} answers a page` });
      return res;
    },
    get: async (c: ApiClient, id: string, query?: Query) => (await c.json<T>({ method: 'GET', path: `${path}/${seg(id)}`, query })).data,
    create: async (c: ApiClient, body: unknown, idempotencyKey: string) => (await c.json<T>({ method: 'POST', path, json: body, idempotencyKey })).data,
    update: async (c: ApiClient, id: string, body: unknown) => (await c.json<T>({ method: 'PATCH', path: `${path}/${seg(id)}`, json: body })).data,
    /** 204, or 200 with the object or `{id, type: "<x>_deleted"}` (docs/service.md: clients accept either). */
    delete: async (c: ApiClient, id: string) => (await c.json<T | undefined>({ method: 'DELETE', path: `${path}/${seg(id)}`, expect: 'object-or-none' })).data,
    archive: async (c: ApiClient, id: string) =>
      (await c.json<T | undefined>({ method: 'POST', path: `${path}/${seg(id)}/archive`, expect: 'object-or-none' })).data,
  };
}

export type Crud = ReturnType<typeof crud<WireObject>>;

const agentsBase = crud<Agent>(RESOURCES.agents);

export const agents = {
  ...agentsBase,
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<Agent>(c, `${agentsBase.itemPath(id)}/versions`, {}, opts),
};
