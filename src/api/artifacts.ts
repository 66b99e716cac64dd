import type { ApiClient } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Artifact } from '../wire/resources';

const base = crud<Artifact>(RESOURCES.artifacts);

/** Artifacts (docs/service.md "Other resources"): list by session, versions, content of one version. */
export const artifacts = {
  ...base,
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<Artifact>(c, `${base.itemPath(id)}/versions`, {}, opts),
  /** Without `version` the latest one is downloaded; the content type is not shown. */
  content: (c: ApiClient, id: string, version?: string) => c.send({ method: 'GET', path: `${base.itemPath(id)}/content`, query: { version }, accept: '*/*' }),
};
