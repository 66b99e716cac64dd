import type { ApiClient } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Trigger, TriggerRun } from '../wire/resources';

// Spec config rule 11: the two session modes.
export const SESSION_MODES = ['new_session', 'reuse_session'] as const;
/** Members a `reuse_session` trigger may not change. */
export const SESSION_SHAPING = ['agent_id', 'agent_version', 'environment_id', 'resources'] as const;

// Assumption (docs/service.md): run, pause, resume and runs paths under `/v1/triggers/{id}`.
const base = crud<Trigger>(RESOURCES.triggers);
const item = base.itemPath;

export const triggers = {
  ...base,
  /** A manual run → TriggerRun. */
  run: async (c: ApiClient, id: string) => (await c.json<TriggerRun>({ method: 'POST', path: `${item(id)}/run` })).data,
  pause: async (c: ApiClient, id: string) => (await c.json<Trigger>({ method: 'POST', path: `${item(id)}/pause` })).data,
  resume: async (c: ApiClient, id: string) => (await c.json<Trigger>({ method: 'POST', path: `${item(id)}/resume` })).data,
  runs: (c: ApiClient, id: string, opts: ListOptions) => paginate<TriggerRun>(c, `${item(id)}/runs`, {}, opts),
};
