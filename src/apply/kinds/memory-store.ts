import { memoryStores } from '../../api/memory';
import type { KindSpec } from '../types';
import { KIND_NAMES } from '../names';

export const memoryStore: KindSpec = {
  ...KIND_NAMES.MemoryStore,
  api: memoryStores,
  fields: ['name', 'description', 'metadata'],
  required: ['name'],
};
