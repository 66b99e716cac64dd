import type { Column } from '../../output/table';
import type { Vault, VaultCredential } from '../../wire/resources';
import { age } from '../../output/age';
import { LABELLED_WIDE_COLUMNS, nameColumn } from '../../output/cells';

export const VAULT_COLUMNS: Column<Vault>[] = [
  { header: 'ID', get: (v) => v.id },
  nameColumn,
  { header: 'DESCRIPTION', get: (v) => v.description },
  { header: 'UPDATED', get: (v) => age(v.updated_at) },
  ...LABELLED_WIDE_COLUMNS,
];

/** A credential's value is write-only: there is no column for it. */
export const CREDENTIAL_COLUMNS: Column<VaultCredential>[] = [
  { header: 'ID', get: (c) => c.id },
  nameColumn,
  { header: 'TYPE', get: (c) => c.type },
  { header: 'EGRESS_ENV', get: (c) => c.egress_environment_id },
  { header: 'UPDATED', get: (c) => age(c.updated_at) },
  { header: 'CREATED', get: (c) => age(c.created_at), wide: true },
];
