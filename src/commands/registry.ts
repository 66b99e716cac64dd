import type { GroupBuilder } from './kit';

/** A top-level command, described here so `svc --help` lists it without loading it. */
export interface GroupEntry {
  name: string;
  description: string;
  load: () => Promise<{ default: GroupBuilder }>;
  /** Left out of help (the completion scripts' callback). */
  hidden?: boolean;
}

export const GROUPS: GroupEntry[] = [
  { name: 'agents', description: 'Manage agents and their versions', load: () => import('./agents/index') },
  {
    name: 'apply',
    description: 'Apply configuration files (agents, environments, triggers, vaults, memory stores, skills)',
    load: () => import('./apply/index'),
  },
  { name: 'api', description: 'Make a raw API request', load: () => import('./api/index') },
  { name: 'artifacts', description: 'List, show and download artifacts', load: () => import('./artifacts/index') },
  { name: 'auth', description: 'Log in, check and print credentials', load: () => import('./auth/index') },
  { name: '__complete', description: 'Complete resource IDs for the shell scripts', load: () => import('./completion/complete'), hidden: true },
  { name: 'completion', description: 'Print the shell completion script (bash, zsh or fish)', load: () => import('./completion/index') },
  { name: 'config', description: 'Read and write settings and profiles', load: () => import('./config/index') },
  { name: 'demo', description: 'A first look, no account needed: an agent, its threads and a confirmation, live', load: () => import('./demo/index') },
  { name: 'diff', description: 'Show what `svc apply` would change; exit 1 when something would', load: () => import('./diff/index') },
  { name: 'doctor', description: 'Check config, credentials, connectivity, version header and clock', load: () => import('./doctor/index') },
  { name: 'dreams', description: 'Manage dreams', load: () => import('./dreams/index') },
  { name: 'emulator', description: 'Run the local emulator of the service', load: () => import('./emulator/index') },
  { name: 'environments', description: 'Manage environments (cloud or self-hosted)', load: () => import('./environments/index') },
  { name: 'files', description: 'Upload, list, show, download and delete files', load: () => import('./files/index') },
  { name: 'memories', description: 'Read, write, version and redact memories of a store', load: () => import('./memories/index') },
  { name: 'memory-stores', description: 'Manage memory stores', load: () => import('./memory-stores/index') },
  { name: 'plugins', description: 'Find, publish, validate and download plugins', load: () => import('./plugins/index') },
  { name: 'run', description: 'Send a message to an agent and follow the session until idle (for CI)', load: () => import('./run/index') },
  { name: 'sessions', description: 'Manage sessions: send, interrupt, continue, confirm, tail, wait, export', load: () => import('./sessions/index') },
  { name: 'skills', description: 'Manage skills and their versions', load: () => import('./skills/index') },
  { name: 'threads', description: 'List, show, archive and tail the threads of a session', load: () => import('./threads/index') },
  { name: 'triggers', description: 'Manage triggers, their runs, pause and resume', load: () => import('./triggers/index') },
  { name: 'vaults', description: 'Manage vaults and their credentials', load: () => import('./vaults/index') },
  { name: 'work', description: 'Inspect and drive work rows of a self-hosted environment', load: () => import('./work/index') },
  { name: 'worker', description: 'Run a self-hosted worker for an environment', load: () => import('./worker/index') },
];

export function findGroup(name: string): GroupEntry | undefined {
  return GROUPS.find((g) => g.name === name);
}
