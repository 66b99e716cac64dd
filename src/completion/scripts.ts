import type { Command } from 'commander';
import { bashScript } from './bash';
import { fishScript } from './fish';
import { tableRows } from './table';
import { commandNodes } from './tree';
import { zshScript } from './zsh';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** File names under completions/, as each shell's loader expects them. */
export const SCRIPT_FILES: Record<Shell, string> = { bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' };

const RENDER = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The completion script of one shell for the whole (fully loaded) command tree. */
export function completionScript(shell: Shell, program: Command): string {
  return RENDER[shell](tableRows(commandNodes(program)));
}
