import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import type { FlagKind, FlagTable } from '../../src/cli/action';
import { wholeTree } from '../../src/cli/main';
import { API_FLAGS } from '../../src/commands/api/index';
import { APPLY_FLAGS, SOURCE_FLAGS } from '../../src/commands/apply/index';
import { APPLY_ONE_FLAGS } from '../../src/commands/apply/verb';
import { EMULATOR_FLAGS } from '../../src/commands/emulator/parse';
import { FILE_DOWNLOAD_FLAGS } from '../../src/commands/files/download';
import { FILE_UPLOAD_FLAGS } from '../../src/commands/files/upload';
import { MEMORY_CAT_FLAGS } from '../../src/commands/memories/cat';
import { MEMORY_WRITE_FLAGS } from '../../src/commands/memories/write';
import { PLUGIN_PUBLISH_FLAGS, PLUGIN_VALIDATE_FLAGS } from '../../src/commands/plugins/publish';
import { RUN_FLAGS } from '../../src/commands/run/parse';
import { SESSION_CONFIRM_FLAGS } from '../../src/commands/sessions/confirm';
import { SESSION_EVENTS_FLAGS } from '../../src/commands/sessions/events';
import { SESSION_EXPORT_FLAGS } from '../../src/commands/sessions/export';
import { SESSION_INTERRUPT_FLAGS } from '../../src/commands/sessions/interrupt';
import { SESSION_SEND_FLAGS } from '../../src/commands/sessions/send';
import { SESSION_STATS_FLAGS } from '../../src/commands/sessions/stats';
import { SESSION_TRACE_FLAGS } from '../../src/commands/sessions/trace';
import { SESSION_GREP_FLAGS } from '../../src/commands/sessions/grep';
import { SESSION_DIFF_FLAGS } from '../../src/commands/sessions/diff';
import { SESSION_TAIL_FLAGS, THREAD_TAIL_FLAGS } from '../../src/commands/sessions/tail';
import { SESSION_TOOL_RESULT_FLAGS } from '../../src/commands/sessions/tool-result';
import { SESSION_WAIT_FLAGS } from '../../src/commands/sessions/wait';
import { SESSION_EXPLAIN_FLAGS } from '../../src/commands/sessions/explain';
import { SESSION_RERUN_FLAGS } from '../../src/commands/sessions/rerun';
import { EMULATOR_OUTAGE_FLAGS } from '../../src/commands/emulator/outage';
import { SKILL_CREATE_FLAGS, SKILL_CREATE_VERSION_FLAGS } from '../../src/commands/skills/create';
import { STATS_FLAGS } from '../../src/commands/stats/index';
import { CREDENTIAL_CREATE_FLAGS, CREDENTIAL_UPDATE_FLAGS } from '../../src/commands/vaults/credentials';
import { VERSIONED_DOWNLOAD_FLAGS } from '../../src/cli/verbs/transfer';
import { WORK_LIST_FLAGS } from '../../src/commands/work/index';
import { LEASE_FLAGS, STOP_FLAGS } from '../../src/commands/work/lease';
import { WORK_POLL_FLAGS } from '../../src/commands/work/poll';
import { WORK_STATS_FLAGS } from '../../src/commands/work/stats-parse';
import { WORKER_RUN_FLAGS, WORKER_SERVE_FLAGS } from '../../src/commands/worker/parse';

/** The tables the parse steps read their flags by, and the commands that declare those flags. */
const TABLES: Array<[string[], FlagTable]> = [
  [['run'], RUN_FLAGS],
  [['worker', 'run'], WORKER_RUN_FLAGS],
  [['worker', 'serve'], WORKER_SERVE_FLAGS],
  [['emulator'], EMULATOR_FLAGS],
  [['api'], API_FLAGS],
  [['work', 'stats'], WORK_STATS_FLAGS],
  [['skills', 'create'], SKILL_CREATE_FLAGS],
  [['skills', 'create-version'], SKILL_CREATE_VERSION_FLAGS],
  [['plugins', 'publish'], PLUGIN_PUBLISH_FLAGS],
  [['plugins', 'validate'], PLUGIN_VALIDATE_FLAGS],
  [['memories', 'write'], MEMORY_WRITE_FLAGS],
  [['files', 'upload'], FILE_UPLOAD_FLAGS],
  [['files', 'download'], FILE_DOWNLOAD_FLAGS],
  [['sessions', 'send'], SESSION_SEND_FLAGS],
  [['sessions', 'tool-result'], SESSION_TOOL_RESULT_FLAGS],
  [['sessions', 'confirm'], SESSION_CONFIRM_FLAGS],
  [['sessions', 'interrupt'], SESSION_INTERRUPT_FLAGS],
  [['vaults', 'credentials', 'create'], CREDENTIAL_CREATE_FLAGS],
  [['vaults', 'credentials', 'update'], CREDENTIAL_UPDATE_FLAGS],
  [['stats'], STATS_FLAGS],
  [['apply'], APPLY_FLAGS],
  [['diff'], SOURCE_FLAGS],
  [['agents', 'apply'], APPLY_ONE_FLAGS],
  [['environments', 'apply'], APPLY_ONE_FLAGS],
  [['triggers', 'apply'], APPLY_ONE_FLAGS],
  [['sessions', 'events'], SESSION_EVENTS_FLAGS],
  [['sessions', 'stats'], SESSION_STATS_FLAGS],
  [['sessions', 'trace'], SESSION_TRACE_FLAGS],
  [['sessions', 'grep'], SESSION_GREP_FLAGS],
  [['sessions', 'diff'], SESSION_DIFF_FLAGS],
  [['sessions', 'wait'], SESSION_WAIT_FLAGS],
  [['sessions', 'explain'], SESSION_EXPLAIN_FLAGS],
  [['sessions', 'rerun'], SESSION_RERUN_FLAGS],
  [['emulator', 'outage'], EMULATOR_OUTAGE_FLAGS],
  [['sessions', 'export'], SESSION_EXPORT_FLAGS],
  [['memories', 'cat'], MEMORY_CAT_FLAGS],
  [['work', 'poll'], WORK_POLL_FLAGS],
  [['work', 'list'], WORK_LIST_FLAGS],
  [['work', 'ack'], LEASE_FLAGS],
  [['work', 'heartbeat'], LEASE_FLAGS],
  [['work', 'stop'], STOP_FLAGS],
  [['sessions', 'tail'], SESSION_TAIL_FLAGS],
  [['threads', 'tail'], THREAD_TAIL_FLAGS],
  [['plugins', 'download'], VERSIONED_DOWNLOAD_FLAGS],
  [['skills', 'download'], VERSIONED_DOWNLOAD_FLAGS],
  [['artifacts', 'download'], VERSIONED_DOWNLOAD_FLAGS],
];

const find = (root: Command, path: string[]): Command =>
  path.reduce((c, name) => {
    const sub = c.commands.find((x) => x.name() === name);
    if (!sub) throw new Error(`no command ${path.join(' ')}`);
    return sub;
  }, root);

/** How commander hands over an option's value: a switch (or --no-x) a boolean, a repeated value a list, else a string. */
function kindOf(o: Option): FlagKind {
  if (o.isBoolean() || o.negate) return 'switch';
  if (o.variadic) return 'list';
  // A repeatable option collects through its parser: its first value comes back as an array.
  return o.parseArg && Array.isArray(o.parseArg(o.argChoices?.[0] ?? 'x', undefined as never)) ? 'list' : 'string';
}

describe('typed flag tables match what the commands declare', () => {
  it('each table names exactly the flags its command declares, each with the kind commander hands over', async () => {
    const tree = await wholeTree();
    for (const [path, table] of TABLES) {
      const declared = Object.fromEntries(find(tree, path).options.map((o) => [o.attributeName(), kindOf(o)]));
      expect(table, path.join(' ')).toEqual(declared);
    }
  });
});
