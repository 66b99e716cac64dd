import { seg } from './path';
import type { ApiClient, Query } from './client';
import { paginate, type ListOptions } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { Vault, VaultCredential } from '../wire/resources';

// Assumption (docs/service.md): credentials live under `/v1/vaults/{id}/credentials`; `value` is write-only.
const creds = (vault: string) => `/v1/vaults/${seg(vault)}/credentials`;

export const CREDENTIAL_TYPES = ['static_bearer', 'environment_variable', 'mcp_oauth'] as const;

/** A credential body; `value` is the secret and is never logged or printed. */
export type CredentialBody = Record<string, unknown> & { value?: string };

export const vaults = {
  ...crud<Vault>(RESOURCES.vaults),
  credentials: {
    list: (c: ApiClient, vault: string, query: Query, opts: ListOptions) => paginate<VaultCredential>(c, creds(vault), query, opts),
    get: async (c: ApiClient, vault: string, id: string) => (await c.json<VaultCredential>({ method: 'GET', path: `${creds(vault)}/${seg(id)}` })).data,
    create: async (c: ApiClient, vault: string, body: CredentialBody, idempotencyKey: string) =>
      (await c.json<VaultCredential>({ method: 'POST', path: creds(vault), json: body, idempotencyKey })).data,
    update: async (c: ApiClient, vault: string, id: string, body: CredentialBody) =>
      (await c.json<VaultCredential>({ method: 'PATCH', path: `${creds(vault)}/${seg(id)}`, json: body })).data,
    /** 200 or 204 (docs/service.md: clients accept either). */
    delete: async (c: ApiClient, vault: string, id: string) =>
      (await c.json<VaultCredential | undefined>({ method: 'DELETE', path: `${creds(vault)}/${seg(id)}`, expect: 'object-or-none' })).data,
  },
};
