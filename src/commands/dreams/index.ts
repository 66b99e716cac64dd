import type { Command } from 'commander';
import { dreams } from '../../api/dreams';
import type { Kit } from '../../cli/action';
import { addItemAction } from '../../cli/verbs/item-action';
import { addCreate, addGet, addList, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { DREAM_COLUMNS } from './columns';

export const DREAMS: ResourceSpec = resourceSpec(dreams, DREAM_COLUMNS);

export default function build(group: Command, kit: Kit): void {
  addList(group, kit, DREAMS, {
    examples: ['svc dreams list', 'svc dreams list --memory-store STORE_ID -o ndjson'],
  });
  addGet(group, kit, DREAMS, { examples: ['svc dreams get DREAM_ID', 'svc dreams get DREAM_ID --jq .status'] });
  addCreate(group, kit, DREAMS, {
    flags: [
      { flags: '--memory-store <id>', description: 'the memory store to maintain', field: 'memory_store_id' },
      { flags: '--instructions <text>', description: 'what the dream should focus on', field: 'instructions' },
    ],
    required: ['memory_store_id'],
    examples: ['svc dreams create --memory-store STORE_ID', 'svc dreams create --memory-store STORE_ID --instructions "Merge duplicate notes"'],
  });
  addItemAction(group, kit, {
    name: 'cancel',
    arg: { name: '<id>', description: 'dream ID' },
    description: 'Cancel a running dream',
    examples: ['svc dreams cancel DREAM_ID'],
    columns: DREAM_COLUMNS,
    send: dreams.cancel,
  });
}
