import { checkTrigger, triggerPatches } from '../../api/checks/trigger';
import type { Obj } from '../../api/resources';
import { SESSION_SHAPING, triggers } from '../../api/triggers';
import { ExitCodeError } from '../../runtime/errors';
import type { Body, KindSpec } from '../types';
import { KIND_NAMES } from '../names';

/** apply's plan for a live trigger: refuses, before any write, what the service is certain to refuse. */
function applyPatches(live: Obj, patch: Body): Body[] {
  const shaping = SESSION_SHAPING.filter((k) => k in patch);
  if (live.session_mode === 'reuse_session' && shaping.length && patch.session_mode !== 'new_session') {
    throw new ExitCodeError(
      7,
      `trigger ${live.id} uses reuse_session, so ${shaping.join(', ')} cannot change: set session_mode: new_session in the file, or create a new trigger`,
    );
  }
  return triggerPatches(patch);
}

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
