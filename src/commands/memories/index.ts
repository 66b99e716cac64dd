import type { Command } from 'commander';
import type { Kit } from '../kit';

// Placeholder until this group's verbs land.
export default function build(_group: Command, _kit: Kit): void {}
