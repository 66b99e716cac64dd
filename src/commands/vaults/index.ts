import type { Command } from 'commander';
import { vaults } from '../../api/vaults';
import type { Kit } from '../../cli/action';
import { addArchive, addCreate, addDelete, addGet, addList, addUpdate, type BodyFlag, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { VAULT_COLUMNS } from './columns';
import { addCredentials } from './credentials';

export const VAULTS: ResourceSpec = resourceSpec(vaults, VAULT_COLUMNS);

const FLAGS: BodyFlag[] = [
  { flags: '--name <name>', description: 'vault name', field: 'name' },
  { flags: '--description <text>', description: 'description', field: 'description' },
];

export default function build(group: Command, kit: Kit): void {
  addList(group, kit, VAULTS, { examples: ['svc vaults list', 'svc vaults list --all -o ndjson'] });
  addGet(group, kit, VAULTS, { examples: ['svc vaults get VAULT_ID'] });
  addCreate(group, kit, VAULTS, {
    flags: FLAGS,
    required: ['name'],
    examples: ['svc vaults create --name production', 'svc vaults create --data @vault.yaml'],
  });
  addUpdate(group, kit, VAULTS, { flags: FLAGS, examples: ['svc vaults update VAULT_ID --description "prod secrets"'] });
  addDelete(group, kit, VAULTS, { examples: ['svc vaults delete VAULT_ID'] });
  addArchive(group, kit, VAULTS, { examples: ['svc vaults archive VAULT_ID'] });
  addCredentials(group, kit);
}
