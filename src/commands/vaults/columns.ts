import type { Column } from '../../output/table';
import type { Vault, VaultCredential } from '../../wire/resources';
import { age } from '../../output/age';
import { labelsCell, nameColumn } from '../../output/cells';

export const VAULT_COLUMNS: Column<Vault>[] = [
  { header: 'ID', get: (v) => v.id },
  nameColumn,
  { header: 'DESCRIPTION', get: (v) => v.description },
  { header: 'UPDATED', get: (v) => age(v.updated_at) },
  { header: 'LABELS', get: (v) => labelsCell(v.metadata), wide: true },
  { header: 'CREATED', get: (v) => age(v.created_at), wide: true },
  { header: 'ARCHIVED', get: (v) => age(v.archived_at), wide: true },
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
