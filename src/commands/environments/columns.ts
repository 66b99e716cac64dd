import type { Column } from '../../output/table';
import { age } from '../../output/age';

const config = (e: any): any => (e?.config && typeof e.config === 'object' ? e.config : {});

export const ENVIRONMENT_COLUMNS: Column[] = [
  { header: 'ID', get: (e) => e.id },
  { header: 'NAME', get: (e) => e.name },
  { header: 'TYPE', get: (e) => config(e).type },
  { header: 'PROXY', get: (e) => config(e).proxy?.mode },
  { header: 'UPDATED', get: (e) => age(e.updated_at) },
];
