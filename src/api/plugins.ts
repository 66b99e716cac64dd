import { seg } from './path';
import type { ApiClient, RawBody } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Plugin, WireObject } from '../wire/resources';

const base = crud<Plugin>(RESOURCES.plugins);

/** What a publish answers (spec "Plugin publishing"): the plugin, the version and the validation result. */
export interface Published {
  plugin?: Plugin;
  version?: WireObject;
  validation?: Validation;
  [k: string]: unknown;
}

/** `POST /v1/plugins/validate`: `ok` false means the package cannot be published. */
export interface Validation {
  ok?: boolean;
  errors?: Array<{ message?: string } | string>;
  [k: string]: unknown;
}

/** Plugins: list with filters, publish (multipart `.zip`), validate, versions, download, archive (204). */
export const plugins = {
  ...base,
  publish: async (c: ApiClient, body: RawBody, idempotencyKey: string) =>
    (await c.json<Published>({ method: 'POST', path: base.path, body, idempotencyKey })).data,
  publishVersion: async (c: ApiClient, id: string, body: RawBody, idempotencyKey: string) =>
    (await c.json<Published>({ method: 'POST', path: `${base.itemPath(id)}/versions`, body, idempotencyKey })).data,
  validate: async (c: ApiClient, body: RawBody, idempotencyKey: string) =>
    (await c.json<Validation>({ method: 'POST', path: `${base.path}/validate`, body, idempotencyKey })).data,
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<WireObject>(c, `${base.itemPath(id)}/versions`, {}, opts),
  content: (c: ApiClient, id: string, version: string) =>
    c.send({ method: 'GET', path: `${base.itemPath(id)}/versions/${seg(version)}/content`, accept: 'application/zip, */*' }),
};
