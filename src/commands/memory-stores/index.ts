import type { Command } from 'commander';
import { memoryStores } from '../../api/memory';
import type { Kit } from '../../cli/action';
import { addArchive, addCreate, addDelete, addGet, addUpdate, type BodyFlag, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { addSelectableList } from '../../cli/verbs/selector-list';
import { MEMORY_STORE_COLUMNS } from './columns';

export const MEMORY_STORES: ResourceSpec = resourceSpec(memoryStores, MEMORY_STORE_COLUMNS);

const FLAGS: BodyFlag[] = [
  { flags: '--name <name>', description: 'store name (unique in the project, archived stores included)', field: 'name' },
  { flags: '--description <text>', description: 'description', field: 'description' },
];

export default function build(group: Command, kit: Kit): void {
  addSelectableList(group, kit, MEMORY_STORES, {
    examples: [
      'svc memory-stores list',
      'svc memory-stores list --include-archived --all -o ndjson',
      "svc memory-stores list -l 'team=infra' --older-than 30d",
    ],
  });
  addGet(group, kit, MEMORY_STORES, { examples: ['svc memory-stores get STORE_ID', 'svc memory-stores get STORE_ID --jq .name'] });
  addCreate(group, kit, MEMORY_STORES, {
    flags: FLAGS,
    required: ['name'],
    examples: ['svc memory-stores create --name team-notes --description "What the team agreed"', 'svc memory-stores create --data @store.yaml'],
  });
  addUpdate(group, kit, MEMORY_STORES, {
    flags: FLAGS,
    examples: ['svc memory-stores update STORE_ID --description "Shared notes"', 'svc memory-stores update STORE_ID --name renamed'],
  });
  addDelete(group, kit, MEMORY_STORES, { examples: ['svc memory-stores delete STORE_ID'] });
  addArchive(group, kit, MEMORY_STORES, { examples: ['svc memory-stores archive STORE_ID', "svc memory-stores archive -l 'scratch' --yes"] });
}
