import type { Command } from 'commander';
import { environments } from '../../api/environments';
import { agents } from '../../api/resources';
import { triggers } from '../../api/triggers';
import { addApply } from '../apply/verb';
import type { Kit } from '../../cli/action';
import { addItemAction } from '../../cli/verbs/item-action';
import { addChildList, addCreate, addDelete, addGet, addUpdate, type BodyVerb, pickSource, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { checkTrigger } from '../../api/checks/trigger';
import { addSelectableList } from '../../cli/verbs/selector-list';
import { inParent, listInParent } from '../../cli/verbs/parent';
import { shapeTrigger, TRIGGER_COMPOSITE_FLAGS, TRIGGER_FLAGS, updateTrigger } from './body';
import { RUN_COLUMNS, TRIGGER_COLUMNS, triggerColumns } from './columns';

export const TRIGGERS: ResourceSpec = resourceSpec(triggers, TRIGGER_COLUMNS, triggerColumns);

const BODY: BodyVerb = {
  flags: TRIGGER_FLAGS,
  composite: TRIGGER_COMPOSITE_FLAGS,
  shape: shapeTrigger,
  check: checkTrigger,
  refs: [
    { field: 'agent_id', noun: 'agent', api: agents },
    { field: 'environment_id', noun: 'environment', api: environments },
  ],
};
const REQUIRED = ['name', 'agent_id', 'session_mode', 'initial_events'];

export default function build(group: Command, kit: Kit): void {
  addSelectableList(group, kit, TRIGGERS, {
    examples: [
      'svc triggers list',
      'svc triggers list --agent AGENT_ID -o json',
      "svc triggers list -l 'owner=ops' --older-than 90d -q",
      'svc triggers list -w',
    ],
  });
  addGet(group, kit, TRIGGERS, { examples: ['svc triggers get TRIGGER_ID', 'svc triggers get TRIGGER_ID --jq .paused_reason'] });
  addCreate(group, kit, TRIGGERS, {
    ...BODY,
    required: REQUIRED,
    examples: [
      'svc triggers create --name nightly --agent AGENT_ID --session-mode new_session --cron "0 2 * * *" --timezone UTC --message "Run the nightly report"',
      'svc triggers create --data @trigger.yaml',
    ],
  });
  addUpdate(group, kit, TRIGGERS, {
    ...BODY,
    send: updateTrigger,
    examples: ['svc triggers update TRIGGER_ID --cron "0 3 * * *"', 'svc triggers update TRIGGER_ID --session-mode new_session --agent AGENT_ID'],
  });
  addDelete(group, kit, TRIGGERS, {
    examples: ['svc triggers delete TRIGGER_ID', "svc triggers delete -l 'experiment' --older-than 30d --yes"],
  });
  addApply(group, kit, 'Trigger', { examples: ['svc triggers apply trigger.yaml --dry-run', 'svc triggers apply trigger.yaml -o json'] });

  addChildList(group, kit, {
    name: 'runs',
    parent: { arg: '<trigger>', description: 'trigger ID or name', pick: pickSource(TRIGGERS) },
    description: 'List the runs of a trigger, newest first',
    columns: RUN_COLUMNS,
    examples: ['svc triggers runs TRIGGER_ID', 'svc triggers runs TRIGGER_ID --all -o ndjson'],
    items: async (ctx, ref, lo) => {
      const c = await ctx.api();
      return listInParent(c, triggers, ref, (id) => triggers.runs(c, id, lo));
    },
  });

  addItemAction(group, kit, {
    name: 'run',
    arg: { name: '<trigger>', description: 'trigger ID or name' },
    description: 'Run a trigger now (a manual TriggerRun)',
    examples: ['svc triggers run TRIGGER_ID', 'svc triggers run TRIGGER_ID --jq .session_id'],
    columns: RUN_COLUMNS,
    send: (c, ref) => inParent(c, triggers, ref, (id) => triggers.run(c, id)),
    pick: pickSource(TRIGGERS),
  });
  for (const [verb, description] of [
    ['pause', 'Pause a trigger: no scheduled or manual runs until resumed'],
    ['resume', 'Resume a paused trigger'],
  ] as const) {
    addItemAction(group, kit, {
      name: verb,
      arg: { name: '<trigger>', description: 'trigger ID or name' },
      description,
      examples: [`svc triggers ${verb} TRIGGER_ID`],
      columns: TRIGGER_COLUMNS,
      send: (c, ref) => inParent(c, triggers, ref, (id) => triggers[verb](c, id)),
      pick: pickSource(TRIGGERS),
    });
  }
}
