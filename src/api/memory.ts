import { seg } from './path';
import type { ApiClient, Query } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Memory, MemoryStore, MemoryVersion } from '../wire/resources';

// Assumption (docs/service.md): memory stores follow the common shapes (list, get, create, PATCH, delete, archive).
export const memoryStores = crud<MemoryStore>(RESOURCES.memoryStores);

/** The body of a memory write: UTF-8 `content` or `content_base64`, never both. */
export interface MemoryWrite {
  path?: string;
  content?: string;
  content_base64?: string;
  /** Assumption (emulator): the version the write is based on; a stale one records an out-of-order version. */
  base_version_id?: string;
}

// Assumption (docs/service.md): memories live under `/v1/memory-stores/{store}/memories`, versions under each memory.
const memoriesPath = (store: string): string => `/v1/memory-stores/${seg(store)}/memories`;
const memoryPath = (store: string, id: string): string => `${memoriesPath(store)}/${seg(id)}`;
const versionPath = (store: string, id: string, version: string): string => `${memoryPath(store, id)}/versions/${seg(version)}`;

export const memories = {
  list: (c: ApiClient, store: string, query: Query, opts: ListOptions) => paginate<Memory>(c, memoriesPath(store), query, opts),
  get: async (c: ApiClient, store: string, id: string) => (await c.json<Memory>({ method: 'GET', path: memoryPath(store, id) })).data,
  create: async (c: ApiClient, store: string, body: MemoryWrite, idempotencyKey: string) =>
    (await c.json<Memory>({ method: 'POST', path: memoriesPath(store), json: body, idempotencyKey })).data,
  update: async (c: ApiClient, store: string, id: string, body: MemoryWrite) =>
    (await c.json<Memory>({ method: 'PATCH', path: memoryPath(store, id), json: body })).data,
  /** 200 or 204 (docs/service.md: clients accept either). */
  delete: async (c: ApiClient, store: string, id: string) =>
    (await c.json<Memory | undefined>({ method: 'DELETE', path: memoryPath(store, id), expect: 'object-or-none' })).data,
  versions: (c: ApiClient, store: string, id: string, opts: ListOptions) => paginate<MemoryVersion>(c, `${memoryPath(store, id)}/versions`, {}, opts),
  version: async (c: ApiClient, store: string, id: string, version: string) =>
    (await c.json<MemoryVersion>({ method: 'GET', path: versionPath(store, id, version) })).data,
  /** No body; the version header is sent as everywhere. */
  redact: async (c: ApiClient, store: string, id: string, version: string) =>
    (await c.json<MemoryVersion>({ method: 'POST', path: `${versionPath(store, id, version)}/redact` })).data,
};
