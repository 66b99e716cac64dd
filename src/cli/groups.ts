import type { GroupBuilder } from './action';

/** A top-level command, described here so `svc --help` lists it without loading it. */
export interface GroupEntry {
  name: string;
  description: string;
  load: () => Promise<{ default: GroupBuilder }>;
  /** Left out of help (the completion scripts' callback). */
  hidden?: boolean;
}

export const GROUPS: GroupEntry[] = [
  { name: 'agents', description: 'Manage agents and their versions', load: () => import('../commands/agents/index') },
  {
    name: 'apply',
    description: 'Apply configuration files (agents, environments, triggers, vaults, memory stores, skills)',
    load: () => import('../commands/apply/index'),
  },
  { name: 'api', description: 'Make a raw API request', load: () => import('../commands/api/index') },
  { name: 'artifacts', description: 'List, show and download artifacts', load: () => import('../commands/artifacts/index') },
  { name: 'auth', description: 'Log in, check and print credentials', load: () => import('../commands/auth/index') },
  { name: '__complete', description: 'Complete resource IDs for the shell scripts', load: () => import('../commands/completion/complete'), hidden: true },
  { name: 'completion', description: 'Print the shell completion script (bash, zsh or fish)', load: () => import('../commands/completion/index') },
  { name: 'config', description: 'Read and write settings and profiles', load: () => import('../commands/config/index') },
  {
    name: 'demo',
    description: 'A first look, no account needed: an agent, its threads and a confirmation, live',
    load: () => import('../commands/demo/index'),
  },
  { name: 'diff', description: 'Show what `svc apply` would change; exit 1 when something would', load: () => import('../commands/diff/index') },
  { name: 'doctor', description: 'Check config, credentials, connectivity, version header and clock', load: () => import('../commands/doctor/index') },
  { name: 'dreams', description: 'Manage dreams', load: () => import('../commands/dreams/index') },
  { name: 'emulator', description: 'Run the local emulator of the service', load: () => import('../commands/emulator/index') },
  { name: 'environments', description: 'Manage environments (cloud or self-hosted)', load: () => import('../commands/environments/index') },
  { name: 'files', description: 'Upload, list, show, download and delete files', load: () => import('../commands/files/index') },
  { name: 'memories', description: 'Read, write, version and redact memories of a store', load: () => import('../commands/memories/index') },
  { name: 'memory-stores', description: 'Manage memory stores', load: () => import('../commands/memory-stores/index') },
  { name: 'plugins', description: 'Find, publish, validate and download plugins', load: () => import('../commands/plugins/index') },
  { name: 'run', description: 'Send a message to an agent and follow the session until idle (for CI)', load: () => import('../commands/run/index') },
  {
    name: 'sessions',
    description: 'Manage sessions: send, interrupt, continue, confirm, tail, wait, export',
    load: () => import('../commands/sessions/index'),
  },
  { name: 'skills', description: 'Manage skills and their versions', load: () => import('../commands/skills/index') },
  { name: 'threads', description: 'List, show, archive and tail the threads of a session', load: () => import('../commands/threads/index') },
  { name: 'triggers', description: 'Manage triggers, their runs, pause and resume', load: () => import('../commands/triggers/index') },
  { name: 'vaults', description: 'Manage vaults and their credentials', load: () => import('../commands/vaults/index') },
  { name: 'work', description: 'Inspect and drive work rows of a self-hosted environment', load: () => import('../commands/work/index') },
  { name: 'worker', description: 'Run a self-hosted worker for an environment', load: () => import('../commands/worker/index') },
];

export function findGroup(name: string): GroupEntry | undefined {
  return GROUPS.find((g) => g.name === name);
}
