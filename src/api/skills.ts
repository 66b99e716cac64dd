import { seg } from './path';
import type { ApiClient, RawBody } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Skill, WireObject } from '../wire/resources';

const base = crud<Skill>(RESOURCES.skills);

/** Skills (docs/service.md "Other resources"): packages uploaded as multipart, immutable versions. */
export const skills = {
  ...base,
  /** `POST /v1/skills`: a new skill from a package (multipart `file` plus text fields). */
  upload: async (c: ApiClient, body: RawBody, idempotencyKey: string) => (await c.json<Skill>({ method: 'POST', path: base.path, body, idempotencyKey })).data,
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<WireObject>(c, `${base.itemPath(id)}/versions`, {}, opts),
  /** `POST /v1/skills/{id}/versions`: a new immutable version of an existing skill. */
  uploadVersion: async (c: ApiClient, id: string, body: RawBody, idempotencyKey: string) =>
    (await c.json<WireObject>({ method: 'POST', path: `${base.itemPath(id)}/versions`, body, idempotencyKey })).data,
  // A download is bytes of any type, not JSON.
  content: (c: ApiClient, id: string, version: string) =>
    c.send({ method: 'GET', path: `${base.itemPath(id)}/versions/${seg(version)}/content`, accept: '*/*' }),
};
