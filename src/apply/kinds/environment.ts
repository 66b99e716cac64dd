import { environments } from '../../api/environments';
import { checkEnvironment } from '../../api/checks/environment';
import type { KindSpec } from '../types';
import { KIND_NAMES } from '../names';

export const environment: KindSpec = {
  ...KIND_NAMES.Environment,
  api: environments,
  fields: ['name', 'description', 'config', 'metadata'],
  required: ['name'],
  check: checkEnvironment,
};
