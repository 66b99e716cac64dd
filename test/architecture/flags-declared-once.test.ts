// Each flag is declared once (docs/architecture.md "Flags"): a flag table entry makes the commander option and
// types the parse step; nothing else makes an option.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { DECLARED } from '../../src/cli/flags';
import { wholeTree } from '../../src/cli/main';

const root = join(import.meta.dirname, '..', '..');

function eachCommand(cmd: Command, path: string, visit: (cmd: Command, path: string) => void): void {
  visit(cmd, path);
  for (const sub of cmd.commands) eachCommand(sub, `${path} ${sub.name()}`, visit);
}

describe('each flag declared once', () => {
  it('every option of every command in the tree was made by addFlags from a flag table entry', async () => {
    const stray: string[] = [];
    let count = 0;
    eachCommand(await wholeTree(), 'svc', (cmd, path) => {
      for (const o of cmd.options) {
        count++;
        if (!DECLARED.has(o)) stray.push(`${path}: ${o.flags}`);
      }
    });
    expect(stray).toEqual([]);
    expect(count).toBeGreaterThan(400);
  });

  it('no module of src/ but src/cli/flags.ts declares an option to commander', () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const declaring = files.filter((f) => /\.(option|requiredOption|addOption)\(|new Option\(/.test(readFileSync(join(root, 'src', f), 'utf8')));
    expect(declaring).toEqual([join('cli', 'flags.ts')]);
  });
});
