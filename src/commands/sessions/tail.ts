import type { Command } from 'commander';
import type { Kit } from '../kit';

/** `svc sessions tail` (placeholder until the stream work lands). */
export function addTail(_group: Command, _kit: Kit): void {}
