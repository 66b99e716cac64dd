// Rules proved here (admin path /_emulator/sessions/{id}/egress: the route of each simulated outbound request):
// R-CONF-30, R-CONF-33, R-CONF-34
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { agentSession, history, turn as sseTurn } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });

const DOCS = { type: 'url', name: 'docs', url: 'https://docs.mcp.example.com/mcp' };
const DOCS_HOST = 'docs.mcp.example.com';

async function environment(name: string, proxy?: { mode: 'route_all' | 'limited'; hosts?: string[] }): Promise<string> {
  const r = await call(t.emu, 'POST', '/v1/environments', { body: { name, config: { type: 'cloud', ...(proxy ? { proxy } : {}) } } });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** A session of an agent with the docs MCP server. */
const session = async (body: Record<string, unknown>): Promise<string> => (await agentSession(t.emu, { mcp_servers: [DOCS] }, body)).id;

/** A vault holding an mcp_oauth credential for the docs server, bound to `egressEnv` when given. */
async function oauthVault(egressEnv?: string): Promise<{ vault: string; credentialPath: string }> {
  const v = await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'oauth' } });
  const c = await call(t.emu, 'POST', `/v1/vaults/${v.body.id}/credentials`, {
    body: { name: 'docs', type: 'mcp_oauth', ...(egressEnv ? { egress_environment_id: egressEnv } : {}) },
  });
  expect(c.status).toBe(201);
  return { vault: v.body.id, credentialPath: `/v1/vaults/${v.body.id}/credentials/${c.body.id}` };
}

const turn = (sid: string, text: string, n: number) => sseTurn(t.emu, sid, text, n);
const egress = async (sid: string): Promise<any[]> => {
  const r = await call(t.emu, 'GET', `/_emulator/sessions/${sid}/egress`);
  expect(r.status).toBe(200);
  return r.body.items;
};
/** Each request as `purpose host route[ via NAME]`, environment IDs shown by the names given. */
const shown = (items: any[], names: Record<string, string>) =>
  items.map((x) => `${x.purpose} ${x.host} ${x.route}${x.environment_id ? ` via ${names[x.environment_id] ?? x.environment_id}` : ''}`);

describe('emulator: the routes of the platform outbound requests', () => {
  it('R-CONF-30 on an environment with a proxy, model requests bypass it while MCP calls go through it', async () => {
    for (const mode of ['route_all', 'limited'] as const) {
      const env = await environment(`proxied ${mode}`, { mode, hosts: [] });
      const sid = await session({ environment_id: env });
      await turn(sid, '/mcp docs search {"q":"x"}', 1);
      const items = await egress(sid);
      const models = items.filter((x) => x.purpose === 'model_request');
      // One record per model request, tied to its agent.model_started event.
      const started = (await history(t.emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'agent.model_started').map((e) => e.id);
      expect(models.map((x) => x.event_id)).toEqual(started);
      expect(models.every((x) => x.route === 'direct' && x.environment_id === undefined)).toBe(true);
      expect(items.filter((x) => x.purpose === 'mcp_call')).toEqual([
        { host: DOCS_HOST, purpose: 'mcp_call', route: 'proxy', environment_id: env, server: 'docs', event_id: expect.any(String) },
      ]);
    }
  });

  it('R-CONF-33 the OAuth steps of a credential bound to environment B go through B, while the session runs on A', async () => {
    const a = await environment('A', { mode: 'route_all' });
    const b = await environment('B', { mode: 'limited', hosts: ['auth.example.com'] });
    const { vault } = await oauthVault(b);
    const sid = await session({ environment_id: a, vault_ids: [vault] });
    await turn(sid, '/mcp-fail docs auth', 1);
    expect(
      shown(
        (await egress(sid)).filter((x) => x.purpose !== 'model_request'),
        { [a]: 'A', [b]: 'B' },
      ),
    ).toEqual([
      `oauth_discovery ${DOCS_HOST} proxy via B`,
      `oauth_client_registration ${DOCS_HOST} proxy via B`,
      `oauth_token_exchange ${DOCS_HOST} proxy via B`,
      `mcp_call ${DOCS_HOST} proxy via A`,
      `oauth_refresh ${DOCS_HOST} proxy via B`,
      `mcp_call ${DOCS_HOST} proxy via A`,
    ]);
  });

  it("R-CONF-33 R-CONF-34 once the binding is cleared, the OAuth steps follow the session's own route", async () => {
    const a = await environment('A', { mode: 'route_all' });
    const b = await environment('B', { mode: 'route_all' });
    const plain = await environment('no proxy');
    const names = { [a]: 'A', [b]: 'B' };
    const { vault, credentialPath } = await oauthVault(b);
    const oauthSteps = async (sid: string) =>
      shown(
        (await egress(sid)).filter((x) => x.purpose.startsWith('oauth_')),
        names,
      );

    const direct = await session({ environment_id: plain, vault_ids: [vault] });
    await turn(direct, '/mcp-fail docs refresh', 1);
    expect(await oauthSteps(direct)).toEqual(
      ['oauth_discovery', 'oauth_client_registration', 'oauth_token_exchange', 'oauth_refresh'].map((p) => `${p} ${DOCS_HOST} proxy via B`),
    );

    const cleared = await call(t.emu, 'PATCH', credentialPath, { body: { egress_environment_id: '' } });
    expect(cleared.body.egress_environment_id).toBeNull();
    await turn(direct, '/mcp-fail docs refresh', 2);
    expect((await oauthSteps(direct)).at(-1)).toBe(`oauth_refresh ${DOCS_HOST} direct`);

    const onA = await session({ environment_id: a, vault_ids: [vault] });
    await turn(onA, '/mcp-fail docs refresh', 1);
    expect(await oauthSteps(onA)).toEqual(
      ['oauth_discovery', 'oauth_client_registration', 'oauth_token_exchange', 'oauth_refresh'].map((p) => `${p} ${DOCS_HOST} proxy via A`),
    );
  });

  it('the egress admin path answers 404 for an unknown session', async () => {
    expect((await call(t.emu, 'GET', '/_emulator/sessions/sesn_nope/egress')).status).toBe(404);
  });
});
