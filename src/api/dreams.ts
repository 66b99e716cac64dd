import type { ApiClient } from './client';
import { RESOURCES } from './manifest';
import { crud, type Obj } from './resources';

const base = crud(RESOURCES.dreams);

// Assumption (API-NOTES): dreams are created, listed, read and cancelled (`POST /v1/dreams/{id}/cancel`); nothing else.
export const dreams = {
  ...base,
  cancel: async (c: ApiClient, id: string) => (await c.json<Obj>({ method: 'POST', path: `${base.itemPath(id)}/cancel` })).data,
};
