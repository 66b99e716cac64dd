import type { Column } from '../../output/table';

const config = (e: any): any => (e?.config && typeof e.config === 'object' ? e.config : {});

export const ENVIRONMENT_COLUMNS: Column[] = [
  { header: 'ID', get: (e) => e.id },
  { header: 'NAME', get: (e) => e.name },
  { header: 'TYPE', get: (e) => config(e).type },
  { header: 'PROXY', get: (e) => config(e).proxy?.mode },
  { header: 'UPDATED', get: (e) => e.updated_at },
];
