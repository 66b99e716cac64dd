import type { Column } from '../../output/table';
import type { Environment } from '../../wire/resources';
import { age } from '../../output/age';
import { LABELLED_WIDE_COLUMNS, listCell, nameColumn } from '../../output/cells';

const config = (e: any): any => (e?.config && typeof e.config === 'object' ? e.config : {});

export const ENVIRONMENT_COLUMNS: Column<Environment>[] = [
  { header: 'ID', get: (e) => e.id },
  nameColumn,
  { header: 'TYPE', get: (e) => config(e).type },
  { header: 'PROXY', get: (e) => config(e).proxy?.mode },
  { header: 'UPDATED', get: (e) => age(e.updated_at) },
  { header: 'HOSTS', get: (e) => listCell(config(e).proxy?.hosts), wide: true },
  { header: 'DESCRIPTION', get: (e) => e.description, wide: true },
  ...LABELLED_WIDE_COLUMNS,
];
