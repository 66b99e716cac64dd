import type { Command } from 'commander';
import type { Kit } from '../kit';

/** `svc sessions wait` (placeholder until the stream work lands). */
export function addWait(_group: Command, _kit: Kit): void {}
