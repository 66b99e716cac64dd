import { seg } from './path';
import type { ApiClient, Query, RawBody } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import type { SvcFile } from '../wire/resources';

const PATH = RESOURCES.files.path;
const item = (id: string): string => `${PATH}/${seg(id)}`;

/**
 * Files. `versioned` false omits svc-api-version, which selects the compatibility format
 * (Versioning rule 2: 200 instead of 201/204, `status`/`status_details` instead of `extract_status`).
 */
export const files = {
  list: (c: ApiClient, query: Query, opts: ListOptions, versioned = true) => paginate<SvcFile>(c, PATH, query, opts, { versionHeader: versioned }),
  get: async (c: ApiClient, id: string, versioned = true) => (await c.json<SvcFile>({ method: 'GET', path: item(id), versionHeader: versioned })).data,
  upload: async (c: ApiClient, body: RawBody, idempotencyKey: string, versioned = true) =>
    (await c.json<SvcFile>({ method: 'POST', path: PATH, body, idempotencyKey, versionHeader: versioned })).data,
  content: (c: ApiClient, id: string, versioned = true) => c.send({ method: 'GET', path: `${item(id)}/content`, accept: '*/*', versionHeader: versioned }),
  /** 204 (current format) or 200 with a body (compatibility format). */
  delete: async (c: ApiClient, id: string, versioned = true) =>
    (await c.json<SvcFile | undefined>({ method: 'DELETE', path: item(id), versionHeader: versioned, expect: 'object-or-none' })).data,
};
