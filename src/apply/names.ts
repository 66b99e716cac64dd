/** The kinds a configuration document may hold. */
export const KINDS = ['Agent', 'Environment', 'Trigger', 'Vault', 'MemoryStore', 'Skill'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Each kind's names: what a group's `apply` verb needs to register itself, kept apart from the kinds' specs
 * (kinds.ts), whose API modules and checks would otherwise load with every command of the group.
 */
export const KIND_NAMES = {
  Agent: { kind: 'Agent', noun: 'agent', group: 'agents' },
  Environment: { kind: 'Environment', noun: 'environment', group: 'environments' },
  Trigger: { kind: 'Trigger', noun: 'trigger', group: 'triggers' },
  Vault: { kind: 'Vault', noun: 'vault', group: 'vaults' },
  MemoryStore: { kind: 'MemoryStore', noun: 'memory store', group: 'memory-stores' },
  Skill: { kind: 'Skill', noun: 'skill', group: 'skills' },
} as const satisfies Record<Kind, { kind: Kind; noun: string; group: string }>;
