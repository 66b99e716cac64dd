import { invalidParam, notFound } from '../errors';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import { listReply, publicView, visible, type Rec } from '../store';
import { listNewest, newestFirst } from '../listing';
import { validate, type Schema } from '../validate';
import { mergeMetadata } from '../metadata';

const CREDENTIAL_TYPES = ['static_bearer', 'environment_variable', 'mcp_oauth'] as const;

type Vault = Rec & { name: string; description: string; metadata: Record<string, string>; archived_at: string | null };
/** `_value` is write-only: kept for sessions, never returned by any endpoint. */
type Credential = Rec & { vault_id: string; name: string; type: string; egress_environment_id: string | null; _value?: string };

const VAULT_SCHEMA: Schema = { name: { type: 'string', required: true }, description: { type: 'string' }, metadata: { type: 'map' } };
const CREDENTIAL_SCHEMA: Schema = {
  name: { type: 'string', required: true },
  type: { type: 'string', required: true, enum: CREDENTIAL_TYPES },
  value: { type: 'string' },
  egress_environment_id: { type: 'string' },
};

export function registerVaults(emu: Emulator): void {
  const vaults = emu.collection<Vault>('vaults', 'vault', 'vault');
  const credentials = emu.collection<Credential>('vault_credentials', 'cred', 'credential');
  const vaultOf = (r: EmuRequest) => vaults.must(r.params.id);
  const credentialOf = (r: EmuRequest) => {
    const c = credentials.get(r.params.credential_id);
    return c && c.vault_id === vaultOf(r).id ? c : notFound('credential', r.params.credential_id);
  };

  /** Config rule 10: only mcp_oauth credentials bind an egress environment; "" clears the binding. */
  const egress = (type: string, id: string | undefined, current: string | null): string | null => {
    if (id === undefined) return current;
    if (type !== 'mcp_oauth' && id !== '') invalidParam('body.egress_environment_id', 'egress_environment_id applies to mcp_oauth credentials only');
    if (id === '') return null;
    const envs = emu.services.environments;
    if (envs && !envs.get(id)) invalidParam('body.egress_environment_id', `environment ${id} not found`);
    return id;
  };

  emu.router.post(
    '/v1/vaults',
    (r) => {
      const body = validate(r.body, VAULT_SCHEMA);
      return { status: 201, body: publicView(vaults.insert({ description: '', metadata: {}, ...body, name: body.name, archived_at: null })) };
    },
    { idempotent: true },
  );
  emu.router.get('/v1/vaults', (r) => {
    return listNewest(vaults, r.query);
  });
  emu.router.get('/v1/vaults/:id', (r) => ({ status: 200, body: publicView(vaultOf(r)) }));
  emu.router.patch('/v1/vaults/:id', (r) => {
    const v = vaultOf(r);
    const body = validate(r.body, VAULT_SCHEMA, { patch: true });
    mergeMetadata(body, v.metadata);
    return { status: 200, body: publicView(vaults.touch(v, body as Partial<Vault>)) };
  });
  emu.router.post(
    '/v1/vaults/:id/archive',
    (r) => {
      return { status: 200, body: publicView(vaults.archive(vaultOf(r))) };
    },
    { body: 'none' },
  );
  emu.router.delete('/v1/vaults/:id', (r) => {
    const v = vaultOf(r);
    for (const c of credentials.values()) if (c.vault_id === v.id) credentials.delete(c.id);
    vaults.delete(v.id);
    return { status: 204 };
  });

  emu.router.post(
    '/v1/vaults/:id/credentials',
    (r) => {
      const v = vaultOf(r);
      const body = validate(r.body, CREDENTIAL_SCHEMA);
      // A bearer token or an environment variable is nothing without its value; an OAuth credential gets its tokens later.
      if (body.type !== 'mcp_oauth' && body.value === undefined) invalidParam('body.value', `value is required for ${body.type}`);
      const c = credentials.insert({
        vault_id: v.id,
        name: body.name,
        type: body.type,
        egress_environment_id: egress(body.type, body.egress_environment_id, null),
        _value: body.value,
      });
      return { status: 201, body: publicView(c) };
    },
    { idempotent: true },
  );
  emu.router.get('/v1/vaults/:id/credentials', (r) => {
    const v = vaultOf(r);
    return listReply(
      newestFirst(
        visible(
          credentials.values().filter((c) => c.vault_id === v.id),
          r.query,
        ),
      ),
      r.query,
    );
  });
  emu.router.get('/v1/vaults/:id/credentials/:credential_id', (r) => ({ status: 200, body: publicView(credentialOf(r)) }));
  emu.router.patch('/v1/vaults/:id/credentials/:credential_id', (r) => {
    const c = credentialOf(r);
    const { type: _, ...schema } = CREDENTIAL_SCHEMA;
    const body = validate(r.body, schema, { patch: true });
    const changes = { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.value !== undefined ? { _value: body.value } : {}) };
    credentials.touch(c, { ...changes, egress_environment_id: egress(c.type, body.egress_environment_id, c.egress_environment_id) } as Partial<Credential>);
    return { status: 200, body: publicView(c) };
  });
  emu.router.delete('/v1/vaults/:id/credentials/:credential_id', (r) => {
    credentials.delete(credentialOf(r).id);
    return { status: 204 };
  });
}
