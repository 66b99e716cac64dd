// Rules proved here: R-CONF-32, R-CONF-34, R-CONF-35, R-CONF-36, R-CONF-37, R-REQ-9, R-REQ-14, R-AUTH-5
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const newVault = async () => (await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'prod secrets' } })).body;
async function environmentId(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'egress', config: { type: 'cloud' } } })).body.id;
}
const addCredential = async (vaultId: string, body: Record<string, unknown>) => call(t.emu, 'POST', `/v1/vaults/${vaultId}/credentials`, { body });

describe('emulator: vaults and credentials', () => {
  it('R-CONF-37 a credential value is never returned by create, get, list or update', async () => {
    const v = await newVault();
    const created = await addCredential(v.id, { name: 'gh', type: 'static_bearer', value: 's3cret-token' });
    expect(created.status).toBe(201);
    const base = `/v1/vaults/${v.id}/credentials`;
    const updated = await call(t.emu, 'PATCH', `${base}/${created.body.id}`, { body: { value: 'rotated-s3cret' } });
    const responses = [created, updated, await call(t.emu, 'GET', `${base}/${created.body.id}`), await call(t.emu, 'GET', base)];
    for (const r of responses) expect(JSON.stringify(r.body)).not.toMatch(/s3cret/);
    expect(created.body).toMatchObject({ name: 'gh', type: 'static_bearer', vault_id: v.id });
  });

  it('R-REQ-14 the credential type is static_bearer, environment_variable or mcp_oauth', async () => {
    const v = await newVault();
    expect((await addCredential(v.id, { name: 'env', type: 'environment_variable', value: 'x' })).status).toBe(201);
    const bad = await addCredential(v.id, { name: 'x', type: 'password', value: 'x' });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.type' });
  });

  it('R-CONF-32 R-CONF-35 an mcp_oauth credential accepts egress_environment_id; omitted on create means no binding', async () => {
    const v = await newVault();
    const env = await environmentId();
    const bound = await addCredential(v.id, { name: 'o1', type: 'mcp_oauth', egress_environment_id: env });
    expect(bound.body.egress_environment_id).toBe(env);
    const unbound = await addCredential(v.id, { name: 'o2', type: 'mcp_oauth' });
    expect(unbound.body.egress_environment_id).toBeNull();
  });

  it('R-CONF-36 R-CONF-34 on update, omission keeps the binding and the empty string clears it', async () => {
    const v = await newVault();
    const env = await environmentId();
    const c = (await addCredential(v.id, { name: 'o', type: 'mcp_oauth', egress_environment_id: env })).body;
    const path = `/v1/vaults/${v.id}/credentials/${c.id}`;
    expect((await call(t.emu, 'PATCH', path, { body: { name: 'renamed' } })).body.egress_environment_id).toBe(env);
    expect((await call(t.emu, 'PATCH', path, { body: { egress_environment_id: '' } })).body.egress_environment_id).toBeNull();
  });

  it('R-CONF-32 an unknown egress environment is 400 invalid_parameter_error', async () => {
    const v = await newVault();
    const r = await addCredential(v.id, { name: 'o', type: 'mcp_oauth', egress_environment_id: 'env_missing' });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.egress_environment_id' });
  });

  it('R-CONF-32 egress_environment_id on a non-OAuth credential is 400 invalid_parameter_error', async () => {
    const v = await newVault();
    const r = await addCredential(v.id, { name: 'b', type: 'static_bearer', value: 'x', egress_environment_id: 'env_1' });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.egress_environment_id' });
  });

  it('R-REQ-9 vaults list, update, and reject unknown members', async () => {
    const v = await newVault();
    expect((await call(t.emu, 'PATCH', `/v1/vaults/${v.id}`, { body: { description: 'd' } })).body.description).toBe('d');
    expect((await call(t.emu, 'GET', '/v1/vaults')).body.items.some((x: any) => x.id === v.id)).toBe(true);
    const bad = await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'x', secret: 'y' } });
    expect(bad.body.error.param).toBe('body.secret');
  });

  it('R-AUTH-5 deleting a vault removes its credentials', async () => {
    const v = await newVault();
    const c = (await addCredential(v.id, { name: 'gh', type: 'static_bearer', value: 'x' })).body;
    expect((await call(t.emu, 'DELETE', `/v1/vaults/${v.id}`)).status).toBe(204);
    expect((await call(t.emu, 'GET', `/v1/vaults/${v.id}/credentials/${c.id}`)).status).toBe(404);
  });
});
