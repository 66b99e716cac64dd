import { KINDED, RESOURCE_LIST, type ResourceEntry } from '../api/manifest';
import type { GroupBuilder } from './action';

/** The sections of `svc --help`, in the order it shows them: what an operator is doing. */
export const SECTIONS = ['Resources', 'Sessions and the fleet', 'Self-hosted workers', 'Configuration', 'Local tools'] as const;
export type Section = (typeof SECTIONS)[number];

/** A top-level command, described here so `svc --help` lists it without loading it. */
export interface GroupEntry {
  name: string;
  description: string;
  /** Where `svc --help` lists it. */
  section: Section;
  load: () => Promise<{ default: GroupBuilder }>;
  /** Left out of help (the completion scripts' callback). */
  hidden?: boolean;
}

/**
 * The resources that have a command folder, by group: verbs beyond the generic ones, or their own tables and
 * examples. A resource without one gets the generic verbs of its manifest row (cli/verbs/plain-group.ts).
 */
const FOLDERS: Record<string, GroupEntry['load']> = {
  agents: () => import('../commands/agents/index'),
  artifacts: () => import('../commands/artifacts/index'),
  dreams: () => import('../commands/dreams/index'),
  environments: () => import('../commands/environments/index'),
  files: () => import('../commands/files/index'),
  'memory-stores': () => import('../commands/memory-stores/index'),
  plugins: () => import('../commands/plugins/index'),
  sessions: () => import('../commands/sessions/index'),
  skills: () => import('../commands/skills/index'),
  triggers: () => import('../commands/triggers/index'),
  vaults: () => import('../commands/vaults/index'),
};

/** A resource's group: its name and description from its manifest row. */
function resourceGroup(r: ResourceEntry): GroupEntry {
  const folder = Object.hasOwn(FOLDERS, r.group) ? FOLDERS[r.group] : undefined;
  return {
    name: r.group,
    description: r.description,
    // Sessions are what the fleet commands act on; every other resource is configuration the fleet runs with.
    section: r.group === 'sessions' ? 'Sessions and the fleet' : 'Resources',
    load: folder ?? (async () => ({ default: (await import('./verbs/plain-group')).plainGroup(r) })),
  };
}

/** The plural of each kind's noun, in the manifest's order: what `svc apply` takes. */
const kindsText = (kinded: readonly ResourceEntry[]): string => kinded.map((r) => `${r.noun}s`).join(', ');

/** Every top-level command: the manifest's resources (`rows`, a copy in tests) and the commands that are no resource. */
export function groupsOf(rows: readonly ResourceEntry[] = RESOURCE_LIST, kinded: readonly ResourceEntry[] = KINDED): GroupEntry[] {
  const others: GroupEntry[] = [
    { name: 'apply', section: 'Configuration', description: `Apply configuration files (${kindsText(kinded)})`, load: () => import('../commands/apply/index') },
    {
      name: 'alias',
      section: 'Configuration',
      description: 'Name a command line: svc alias set NAME EXPANSION, then svc NAME',
      load: () => import('../commands/alias/index'),
    },
    {
      name: 'approve',
      section: 'Sessions and the fleet',
      description: 'Awaited tool confirmations: a live queue, and a policy that answers the routine ones',
      load: () => import('../commands/approve/index'),
    },
    { name: 'api', section: 'Local tools', description: 'Make a raw API request', load: () => import('../commands/api/index') },
    { name: 'auth', section: 'Configuration', description: 'Log in, check and print credentials', load: () => import('../commands/auth/index') },
    {
      name: '__complete',
      section: 'Local tools',
      description: 'Complete resource IDs for the shell scripts',
      load: () => import('../commands/completion/complete'),
      hidden: true,
    },
    {
      name: '__update-check',
      section: 'Local tools',
      description: 'Ask the registry for a newer svc (started detached)',
      load: () => import('../commands/update-check/index'),
      hidden: true,
    },
    {
      name: 'completion',
      section: 'Configuration',
      description: 'Print the shell completion script (bash, zsh or fish)',
      load: () => import('../commands/completion/index'),
    },
    { name: 'config', section: 'Configuration', description: 'Read and write settings and profiles', load: () => import('../commands/config/index') },
    {
      name: 'demo',
      section: 'Local tools',
      description: 'A first look, no account needed: an agent, its threads and a confirmation, live',
      load: () => import('../commands/demo/index'),
    },
    {
      name: 'diff',
      section: 'Configuration',
      description: 'Show what `svc apply` would change; exit 1 when something would',
      load: () => import('../commands/diff/index'),
    },
    {
      name: 'doctor',
      section: 'Local tools',
      description: 'Check config, credentials, connectivity, version header and clock',
      load: () => import('../commands/doctor/index'),
    },
    { name: 'emulator', section: 'Local tools', description: 'Run the local emulator of the service', load: () => import('../commands/emulator/index') },
    {
      name: 'extension',
      section: 'Configuration',
      description: 'List extensions: executables named svc-NAME on PATH, run as svc NAME',
      load: () => import('../commands/extension/index'),
    },
    {
      name: 'listen',
      section: 'Sessions and the fleet',
      description: 'Deliver session events to a webhook or a command (tell a human)',
      load: () => import('../commands/listen/index'),
    },
    {
      name: 'memories',
      section: 'Resources',
      description: 'Read, write, version and redact memories of a store',
      load: () => import('../commands/memories/index'),
    },
    {
      name: 'run',
      section: 'Sessions and the fleet',
      description: 'Send a message to an agent and follow the session until idle (for CI)',
      load: () => import('../commands/run/index'),
    },
    {
      name: 'stats',
      section: 'Sessions and the fleet',
      description: 'What the fleet did: turns, tools, errors, waits on a person, time to first token, per group',
      load: () => import('../commands/stats/index'),
    },
    {
      name: 'threads',
      section: 'Sessions and the fleet',
      description: 'List, show, archive and tail the threads of a session',
      load: () => import('../commands/threads/index'),
    },
    {
      name: 'top',
      section: 'Sessions and the fleet',
      description: 'The fleet, live: sessions, work rows and triggers on one board, keys to act',
      load: () => import('../commands/top/index'),
    },
    {
      name: 'work',
      section: 'Self-hosted workers',
      description: 'Inspect and drive work rows of a self-hosted environment',
      load: () => import('../commands/work/index'),
    },
    {
      name: 'worker',
      section: 'Self-hosted workers',
      description: 'Run a self-hosted worker for an environment',
      load: () => import('../commands/worker/index'),
    },
  ];
  // By name in code-unit order, as help lists them (localeCompare would start ICU's collator).
  return [...rows.map(resourceGroup), ...others].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const GROUPS: GroupEntry[] = groupsOf();

export function findGroup(name: string): GroupEntry | undefined {
  return GROUPS.find((g) => g.name === name);
}

/** Whether a word names one of svc's own commands (a group, help or version), which no alias or extension shadows. */
export function isCommand(word: string): boolean {
  return findGroup(word) !== undefined || word === 'help' || word === 'version';
}
