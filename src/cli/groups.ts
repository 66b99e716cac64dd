import { RESOURCES } from '../api/manifest';
import type { GroupBuilder } from './action';

/** A top-level command, described here so `svc --help` lists it without loading it. */
export interface GroupEntry {
  name: string;
  description: string;
  load: () => Promise<{ default: GroupBuilder }>;
  /** Left out of help (the completion scripts' callback). */
  hidden?: boolean;
}

/** A resource's group: its name and description come from the manifest. */
const resource = (r: { group: string; description: string }, load: GroupEntry['load']): GroupEntry => ({ name: r.group, description: r.description, load });

export const GROUPS: GroupEntry[] = [
  resource(RESOURCES.agents, () => import('../commands/agents/index')),
  {
    name: 'apply',
    description: 'Apply configuration files (agents, environments, triggers, vaults, memory stores, skills)',
    load: () => import('../commands/apply/index'),
  },
  { name: 'alias', description: 'Name a command line: svc alias set NAME EXPANSION, then svc NAME', load: () => import('../commands/alias/index') },
  { name: 'api', description: 'Make a raw API request', load: () => import('../commands/api/index') },
  resource(RESOURCES.artifacts, () => import('../commands/artifacts/index')),
  { name: 'auth', description: 'Log in, check and print credentials', load: () => import('../commands/auth/index') },
  { name: '__complete', description: 'Complete resource IDs for the shell scripts', load: () => import('../commands/completion/complete'), hidden: true },
  {
    name: '__update-check',
    description: 'Ask the registry for a newer svc (started detached)',
    load: () => import('../commands/update-check/index'),
    hidden: true,
  },
  { name: 'completion', description: 'Print the shell completion script (bash, zsh or fish)', load: () => import('../commands/completion/index') },
  { name: 'config', description: 'Read and write settings and profiles', load: () => import('../commands/config/index') },
  {
    name: 'demo',
    description: 'A first look, no account needed: an agent, its threads and a confirmation, live',
    load: () => import('../commands/demo/index'),
  },
  { name: 'diff', description: 'Show what `svc apply` would change; exit 1 when something would', load: () => import('../commands/diff/index') },
  { name: 'doctor', description: 'Check config, credentials, connectivity, version header and clock', load: () => import('../commands/doctor/index') },
  resource(RESOURCES.dreams, () => import('../commands/dreams/index')),
  { name: 'emulator', description: 'Run the local emulator of the service', load: () => import('../commands/emulator/index') },
  resource(RESOURCES.environments, () => import('../commands/environments/index')),
  {
    name: 'extension',
    description: 'List extensions: executables named svc-NAME on PATH, run as svc NAME',
    load: () => import('../commands/extension/index'),
  },
  resource(RESOURCES.files, () => import('../commands/files/index')),
  { name: 'listen', description: 'Deliver session events to a webhook or a command (tell a human)', load: () => import('../commands/listen/index') },
  { name: 'memories', description: 'Read, write, version and redact memories of a store', load: () => import('../commands/memories/index') },
  resource(RESOURCES.memoryStores, () => import('../commands/memory-stores/index')),
  resource(RESOURCES.plugins, () => import('../commands/plugins/index')),
  { name: 'run', description: 'Send a message to an agent and follow the session until idle (for CI)', load: () => import('../commands/run/index') },
  resource(RESOURCES.sessions, () => import('../commands/sessions/index')),
  resource(RESOURCES.skills, () => import('../commands/skills/index')),
  {
    name: 'stats',
    description: 'What the fleet did: turns, tools, errors, waits on a person, time to first token, per group',
    load: () => import('../commands/stats/index'),
  },
  { name: 'threads', description: 'List, show, archive and tail the threads of a session', load: () => import('../commands/threads/index') },
  { name: 'top', description: 'The fleet, live: sessions, work rows and triggers on one board, keys to act', load: () => import('../commands/top/index') },
  resource(RESOURCES.triggers, () => import('../commands/triggers/index')),
  resource(RESOURCES.vaults, () => import('../commands/vaults/index')),
  { name: 'work', description: 'Inspect and drive work rows of a self-hosted environment', load: () => import('../commands/work/index') },
  { name: 'worker', description: 'Run a self-hosted worker for an environment', load: () => import('../commands/worker/index') },
];

export function findGroup(name: string): GroupEntry | undefined {
  return GROUPS.find((g) => g.name === name);
}

/** Whether a word names one of svc's own commands (a group, help or version), which no alias or extension shadows. */
export function isCommand(word: string): boolean {
  return findGroup(word) !== undefined || word === 'help' || word === 'version';
}
