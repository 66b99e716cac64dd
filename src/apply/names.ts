import { KINDED, type Kind } from '../api/manifest';

export type { Kind };

/** The kinds a configuration document may hold: the manifest's entries that have one. */
export const KINDS: readonly Kind[] = KINDED.map((r) => r.kind);

export interface KindName {
  kind: Kind;
  noun: string;
  group: string;
}

/**
 * Each kind's names: what a group's `apply` verb needs to register itself, kept apart from the kinds' specs
 * (kinds/), whose API modules and checks would otherwise load with every command of the group.
 */
export const KIND_NAMES = Object.fromEntries(KINDED.map((r) => [r.kind, { kind: r.kind, noun: r.noun, group: r.group }])) as Record<Kind, KindName>;
