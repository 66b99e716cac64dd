import type { Command } from 'commander';
import { environments } from '../../api/environments';
import { addApply } from '../apply/verb';
import type { Kit } from '../../cli/action';
import { addArchive, addCreate, addDelete, addGet, addUpdate, type BodyFlag, type BodyVerb, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { addSelectableList } from '../../cli/verbs/selector-list';
import { ENVIRONMENT_COLUMNS } from './columns';
import { checkEnvironment } from '../../api/checks/environment';
import { CONFIG_FLAGS, configFromFlags } from './config';

export const ENVIRONMENTS: ResourceSpec = resourceSpec(environments, ENVIRONMENT_COLUMNS);

const FLAGS: BodyFlag[] = [
  { flags: '--name <name>', description: 'environment name', field: 'name' },
  { flags: '--description <text>', description: 'description', field: 'description' },
];

const BODY: BodyVerb = {
  flags: FLAGS,
  composite: CONFIG_FLAGS,
  shape: (body, opts) => {
    const config = configFromFlags(opts, body.config);
    return config === undefined ? body : { ...body, config };
  },
  check: checkEnvironment,
};

export default function build(group: Command, kit: Kit): void {
  addSelectableList(group, kit, ENVIRONMENTS, {
    examples: [
      'svc environments list',
      'svc environments list --official-only -o json',
      "svc environments list -l 'team=ci' --newer-than 7d",
      'svc environments list -w',
    ],
  });
  addGet(group, kit, ENVIRONMENTS, { examples: ['svc environments get ENV_ID', 'svc environments get ENV_ID --jq .config.type'] });
  addCreate(group, kit, ENVIRONMENTS, {
    ...BODY,
    required: ['name'],
    examples: [
      'svc environments create --name ci --self-hosted',
      'svc environments create --name sandbox --proxy-mode limited --proxy-host pypi.org --proxy-host github.com',
      'svc environments create --data @environment.yaml',
    ],
  });
  addUpdate(group, kit, ENVIRONMENTS, {
    ...BODY,
    examples: ['svc environments update ENV_ID --description "CI runners"', 'svc environments update ENV_ID --proxy-mode route_all'],
  });
  addDelete(group, kit, ENVIRONMENTS, { examples: ['svc environments delete ENV_ID'] });
  addArchive(group, kit, ENVIRONMENTS, {
    examples: ['svc environments archive ENV_ID', "svc environments archive -l 'ci' --older-than 30d --yes"],
  });
  addApply(group, kit, 'Environment', { examples: ['svc environments apply environment.yaml --dry-run', 'svc environments apply environment.yaml'] });
}
