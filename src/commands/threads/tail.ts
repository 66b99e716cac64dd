import type { Command } from 'commander';
import type { Kit } from '../kit';

/** `svc threads tail` (placeholder until the stream work lands). */
export function addThreadTail(_group: Command, _kit: Kit): void {}
