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
  { name: 'api', description: 'Make a raw API request', load: () => import('./api/index') },
  { name: 'auth', description: 'Log in, check and print credentials', load: () => import('./auth/index') },
  { name: 'completion', description: 'Print the shell completion script (bash, zsh or fish)', load: () => import('./completion/index') },
  { name: '__complete', description: 'Complete resource IDs for the shell scripts', load: () => import('./completion/complete'), hidden: true },
  { name: 'config', description: 'Read and write settings and profiles', load: () => import('./config/index') },
  { name: 'demo', description: 'A first look: the emulator, an agent and a session, no account needed', load: () => import('./demo/index') },
  { name: 'doctor', description: 'Check config, credentials, connectivity, version header and clock', load: () => import('./doctor/index') },
  { name: 'emulator', description: 'Run the local emulator of the service', load: () => import('./emulator/index') },
];

export function findGroup(name: string): GroupEntry | undefined {
  return GROUPS.find((g) => g.name === name);
}
