import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Environment } from '../wire/resources';

/** `/v1/environments` (docs/service.md: Environments and work); work rows live in ./work.ts. */
export const environments = crud<Environment>(RESOURCES.environments);

// Assumption (docs/service.md): environment config is `{type:"cloud", proxy?:{mode, hosts[]}}` or `{type:"self_hosted"}`.
export const ENVIRONMENT_TYPES = ['cloud', 'self_hosted'] as const;
export const PROXY_MODES = ['route_all', 'limited'] as const;
