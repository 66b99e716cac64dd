// tier: unit
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('one launcher for the package and the executable (src/startup/launch.ts)', () => {
  it('bin/svc.js and src/sea/entry.ts both run it, and neither handles a signal, a pipe or the exit itself', () => {
    const bin = read('bin/svc.js');
    const sea = read('src/sea/entry.ts');
    expect(bin).toMatch(/dist\('launch'\)/);
    expect(bin).toMatch(/\.launch\(\{/);
    expect(sea).toMatch(/from '\.\.\/startup\/launch'/);
    expect(sea).toMatch(/launch\(\{/);
    for (const [name, text] of [
      ['bin/svc.js', bin],
      ['src/sea/entry.ts', sea],
    ]) {
      expect(text, name).not.toMatch(/process\.on\(|process\.exit\(|SIGINT|SIGTERM|EPIPE|--version/);
    }
  });

  it('is the only module of src/ that exits the process', () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const exiting = files.filter((f) => /process\.exit\(/.test(read(join('src', f))));
    expect(exiting).toEqual([join('startup', 'launch.ts')]);
  });
});
