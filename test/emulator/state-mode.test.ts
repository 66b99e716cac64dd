import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server';
import { tempConfigDir } from '../helpers/cli';
import { call } from '../helpers/emulator';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('emulator --state file mode', () => {
  it('writes the snapshot owner-only (0600), even over a 0644 file and a leftover 0644 temp file', async () => {
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
    expect(existsSync(`${statePath}.tmp`)).toBe(false);
    expect(readFileSync(statePath, 'utf8')).toContain('"v"');
    expect(mode(statePath)).toBe(0o600);
  });
});
