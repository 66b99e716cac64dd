import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server';
import { tempConfigDir } from '../helpers/cli';
import { call } from '../helpers/emulator';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('emulator --state file mode', () => {
  it('writes the snapshot owner-only (0600), even over a 0644 file, never through a 0644 file at an old temp name', async () => {
    const statePath = join(tempConfigDir(), 'state.json');
    writeFileSync(statePath, '{}');
    chmodSync(statePath, 0o644);
    writeFileSync(`${statePath}.tmp`, 'left by a crash');
    chmodSync(`${statePath}.tmp`, 0o644);
    const emu = await startEmulator({ port: 0, apiKey: 'sk_mode', statePath });
    try {
      const vault = (await call(emu, 'POST', '/v1/vaults', { body: { name: 'v' } })).body;
      expect(vault.id).toBeDefined();
    } finally {
      await emu.close();
    }
    expect(readFileSync(`${statePath}.tmp`, 'utf8')).toBe('left by a crash');
    expect(readFileSync(statePath, 'utf8')).toContain('"v"');
    expect(mode(statePath)).toBe(0o600);
    expect(readdirSync(dirname(statePath)).sort()).toEqual(['state.json', 'state.json.tmp']);
  });
});
