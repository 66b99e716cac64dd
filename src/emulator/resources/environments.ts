import { STREAMED } from '../router';
import { invalidParam, precondition } from '../errors';
import type { Emulator } from '../server';
import { publicView, type Collection, type Rec } from '../store';
import { listNewest } from '../listing';
import { queryBool, validate, type Schema } from '../validate';
import { mergeMetadata } from '../metadata';

export type EnvironmentConfig = { type: 'cloud'; proxy?: { mode: 'route_all' | 'limited'; hosts: string[] } } | { type: 'self_hosted' };
export type Environment = Rec & { name: string; description: string; config: EnvironmentConfig; metadata: Record<string, string>; archived_at: string | null };

/** Environment body (docs/service.md: Environments and work). */
const ENVIRONMENT_SCHEMA: Schema = {
  name: { type: 'string', required: true },
  description: { type: 'string' },
  config: {
    type: 'object',
    fields: {
      type: { type: 'string', required: true, enum: ['cloud', 'self_hosted'] },
      proxy: {
        type: 'object',
        fields: {
          mode: { type: 'string', required: true, enum: ['route_all', 'limited'] },
          hosts: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  metadata: { type: 'map' },
};

/**
 * Normalises a validated config. Spec rule 9: `route_all` allows an empty `hosts` list; under `limited`
 * the allow-list has no effect (the proxy decides reachability), so it is accepted and stored as sent.
 */
function normaliseConfig(config: Record<string, any>): EnvironmentConfig {
  if (config.type === 'self_hosted') {
    if (config.proxy !== undefined) invalidParam('body.config.proxy', 'a self_hosted environment has no proxy');
    return { type: 'self_hosted' };
  }
  if (config.proxy === undefined) return { type: 'cloud' };
  return { type: 'cloud', proxy: { mode: config.proxy.mode, hosts: config.proxy.hosts ?? [] } };
}

export function registerEnvironments(emu: Emulator): void {
  const environments = emu.collection<Environment>('environments', 'env', 'environment');
  const keys = registerWorkKeys(emu, environments);

  emu.services.environments = { get: (id) => environments.get(id) };

  emu.router.post(
    '/v1/environments',
    (r) => {
      const body = validate(r.body, ENVIRONMENT_SCHEMA);
      const env = environments.insert({
        description: '',
        metadata: {},
        ...body,
        config: normaliseConfig(body.config ?? { type: 'cloud' }),
        archived_at: null,
      } as unknown as Environment);
      return { status: 201, body: publicView(env) };
    },
    { idempotent: true },
  );

  emu.router.get('/v1/environments', (r) => {
    // The emulator holds no platform-provided (official) environments, so official_only=true lists none.
    const officialOnly = queryBool(r.query, 'official_only') ?? false;
    return listNewest(environments, r.query, { timeFilters: true, keep: () => !officialOnly });
  });

  emu.router.get('/v1/environments/:id', (r) => ({ status: 200, body: publicView(environments.must(r.params.id)) }));

  emu.router.patch('/v1/environments/:id', (r) => {
    const env = environments.must(r.params.id);
    if (env.archived_at) precondition('the environment is archived');
    const body = validate(r.body, ENVIRONMENT_SCHEMA, { patch: true });
    mergeMetadata(body, env.metadata);
    environments.touch(env, { ...body, ...(body.config ? { config: normaliseConfig(body.config) } : {}) } as Partial<Environment>);
    return { status: 200, body: publicView(env) };
  });

  emu.router.delete('/v1/environments/:id', (r) => {
    environments.must(r.params.id);
    environments.delete(r.params.id);
    keys.revokeAll(r.params.id);
    return { status: 204 };
  });

  emu.router.post(
    '/v1/environments/:id/archive',
    (r) => {
      return { status: 200, body: publicView(environments.archive(environments.must(r.params.id))) };
    },
    { body: 'none' },
  );
}

/**
 * Environment work keys. docs/service.md: how keys are issued is not shown; the emulator issues them through
 * its local admin path `POST /_emulator/environments/{id}/keys` → 201 `{environment_id, key}`, or with
 * `Accept: text/plain` a line a shell can source. Keys are kept in the snapshot so a worker survives a restart.
 */
function registerWorkKeys(emu: Emulator, environments: Collection<Environment>): { revokeAll(environmentId: string): void } {
  const issued = new Map<string, string>();
  const issue = (environmentId: string, token?: string): string => {
    const key = emu.credentials.issue({ kind: 'environment', environmentId }, token);
    issued.set(key, environmentId);
    return key;
  };

  emu.persist('environment_keys', {
    dump: () => [...issued].map(([key, environmentId]) => ({ key, environment_id: environmentId })),
    load: (data) => {
      for (const { key, environment_id } of data as Array<{ key: string; environment_id: string }>) issue(environment_id, key);
    },
  });

  emu.admin.post(
    '/_emulator/environments/:id/keys',
    (r) => {
      const env = environments.must(r.params.id);
      if (env.config.type !== 'self_hosted') precondition('work keys belong to self_hosted environments');
      const key = issue(env.id);
      if (/\btext\/plain\b/.test(r.headers.accept ?? '')) {
        r.res.writeHead(201, { 'content-type': 'text/plain; charset=utf-8' }).end(`export SVC_ENVIRONMENT_KEY=${key}\n`);
        return STREAMED;
      }
      return { status: 201, body: { environment_id: env.id, key } };
    },
    { body: 'none' },
  );

  return {
    revokeAll(environmentId) {
      for (const [key, id] of issued) {
        if (id !== environmentId) continue;
        emu.credentials.revoke(key);
        issued.delete(key);
      }
    },
  };
}
