import type { ApiClient } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud, type Obj } from './resources';

const base = crud(RESOURCES.artifacts);

/** Artifacts (API-NOTES "Other resources"): list by session, versions, content of one version. */
export const artifacts = {
  ...base,
  versions: (c: ApiClient, id: string, opts: ListOptions) => paginate<Obj>(c, `${base.itemPath(id)}/versions`, {}, opts),
  /** Without `version` the latest one is downloaded (R-FILE-12); the content type is not shown. */
  content: (c: ApiClient, id: string, version?: string) => c.send({ method: 'GET', path: `${base.itemPath(id)}/content`, query: { version }, accept: '*/*' }),
};
