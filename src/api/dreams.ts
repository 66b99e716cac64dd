import type { ApiClient } from './client';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Dream } from '../wire/resources';

const base = crud<Dream>(RESOURCES.dreams);

// Assumption (docs/service.md): dreams are created, listed, read and cancelled (`POST /v1/dreams/{id}/cancel`); nothing else.
export const dreams = {
  ...base,
  cancel: async (c: ApiClient, id: string) => (await c.json<Dream>({ method: 'POST', path: `${base.itemPath(id)}/cancel` })).data,
};
