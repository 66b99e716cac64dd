import { triggers } from '../../api/triggers';
import { applyPatches, checkTrigger } from '../../commands/triggers/body';
import type { KindSpec } from '../types';
import { KIND_NAMES } from '../names';

export const trigger: KindSpec = {
  ...KIND_NAMES.Trigger,
  api: triggers,
  fields: ['name', 'agent_id', 'agent_version', 'environment_id', 'resources', 'session_mode', 'schedule', 'initial_events', 'metadata'],
  applyFields: ['agent', 'environment'],
  readOnly: ['status', 'paused_reason', 'session_id'],
  required: ['name', 'agent_id', 'session_mode', 'initial_events'],
  refs: [
    { at: '', from: 'agent', to: 'agent_id', kind: 'Agent' },
    { at: '', from: 'environment', to: 'environment_id', kind: 'Environment' },
  ],
  check: checkTrigger,
  patches: applyPatches,
};
