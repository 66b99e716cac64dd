import type { Command } from 'commander';
import { environments } from '../../api/environments';
import { agents } from '../../api/resources';
import { sessions } from '../../api/sessions';
import { parseCount } from '../../config/settings';
import type { Kit } from '../../cli/action';
import { checkReferences } from '../../api/checks/references';
import { addCreate, addGet, addUpdate, type BodyFlag, type ResourceSpec } from '../../cli/verbs/resource';
import { addArchive } from './archive';
import { SESSION_COLUMNS } from './columns';
import { addConfirm } from './confirm';
import { addContinue } from './continue';
import { addDelete } from './delete';
import { addEvents } from './events';
import { addExport } from './export';
import { addExplain } from './explain';
import { addRerun } from './rerun';
import { addInterrupt } from './interrupt';
import { addList } from './list';
import { addPending } from './pending';
import { addResources } from './resources';
import { addSend } from './send';
import { addStats } from './stats';
import { addTail } from './tail';
import { addToolResult } from './tool-result';
import { addTrace } from './trace';
import { addGrep } from './grep';
import { addDiff } from './diff';
import { addWait } from './wait';
import { sessionStateText, type SessionStateInput } from '../../session/state';

export const SESSIONS: ResourceSpec = {
  group: 'sessions',
  noun: 'session',
  api: sessions,
  columns: SESSION_COLUMNS,
  tableRecord: (s) => ({ id: s.id, state: sessionStateText(s as SessionStateInput), ...s }),
};

const list = (v: unknown): string[] => [v as string | string[]].flat();

// Assumption (docs/service.md): session create body `agent_id, agent_version, environment_id, title, resources[], vault_ids[]`; a file binding is {type: file, file_id}.
const CREATE_FLAGS: BodyFlag[] = [
  { flags: '--agent, --agent-id <agent_id>', description: 'agent to run (required)', field: 'agent_id' },
  {
    flags: '--agent-version <n>',
    description: 'agent version to freeze (default: the current one)',
    field: 'agent_version',
    parse: (v) => parseCount(v, '--agent-version', 1),
  },
  { flags: '--environment <environment_id>', description: 'environment to run in', field: 'environment_id' },
  { flags: '--title <title>', description: 'session title', field: 'title' },
  { flags: '--vault <vault_id...>', description: 'vault whose credentials the session may use (repeatable)', field: 'vault_ids', parse: list },
  {
    flags: '--resource-file <file_id...>',
    description: 'mount an uploaded file as a session resource (repeatable)',
    field: 'resources',
    parse: (v) => list(v).map((file_id) => ({ type: 'file', file_id })),
  },
];

// Assumption (docs/service.md): PATCH takes `title`, `metadata`, `agent_overrides` (not roster).
const UPDATE_FLAGS: BodyFlag[] = [{ flags: '--title <title>', description: 'session title', field: 'title' }];

export default function build(group: Command, kit: Kit): void {
  addList(group, kit);
  addGet(group, kit, SESSIONS, { examples: ['svc sessions get SESSION_ID', 'svc sessions get SESSION_ID -o json --jq .status'] });
  addCreate(group, kit, SESSIONS, {
    flags: CREATE_FLAGS,
    required: ['agent_id'],
    check: checkReferences,
    refs: [
      { field: 'agent_id', noun: 'agent', api: agents },
      { field: 'environment_id', noun: 'environment', api: environments },
    ],
    examples: [
      'svc sessions create --agent AGENT_ID --title "Nightly triage"',
      'svc sessions create --agent AGENT_ID --agent-version 3 --environment ENV_ID --vault VAULT_A --vault VAULT_B -q',
      'svc sessions create --data @session.yaml --resource-file FILE_ID',
    ],
  });
  addUpdate(group, kit, SESSIONS, {
    flags: UPDATE_FLAGS,
    check: checkReferences,
    examples: ['svc sessions update SESSION_ID --title "Renamed"', 'svc sessions update SESSION_ID --data \'{"metadata":{"team":"infra"}}\''],
  });
  addDelete(group, kit);
  addArchive(group, kit);
  addSend(group, kit);
  addInterrupt(group, kit);
  addContinue(group, kit);
  addConfirm(group, kit);
  addToolResult(group, kit);
  addPending(group, kit);
  addResources(group, kit);
  addEvents(group, kit);
  addExport(group, kit);
  addTail(group, kit);
  addWait(group, kit);
  addStats(group, kit);
  addTrace(group, kit);
  addGrep(group, kit);
  addDiff(group, kit);
  addExplain(group, kit);
  addRerun(group, kit);
}
