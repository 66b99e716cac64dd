import { KINDS, type Kind } from '../names';
import type { KindSpec } from '../types';
import { agent } from './agent';
import { environment } from './environment';
import { memoryStore } from './memory-store';
import { skill } from './skill';
import { trigger } from './trigger';
import { vault } from './vault';

export { KIND_NAMES, KINDS, type Kind } from '../names';

/** Each kind's spec, one file per kind: its API, the fields the service takes, references, checks. */
export const KIND_SPECS: Record<Kind, KindSpec> = {
  Agent: agent,
  Environment: environment,
  Trigger: trigger,
  Vault: vault,
  MemoryStore: memoryStore,
  Skill: skill,
};

export const isKind = (k: unknown): k is Kind => typeof k === 'string' && (KINDS as readonly string[]).includes(k);
