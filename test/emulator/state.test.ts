import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server';
import { tempConfigDir } from '../helpers/cli';
import { call } from '../helpers/emulator';

describe('emulator --state', () => {
  it('keeps agents and their versions across a restart, the snapshot written whole', async () => {
    const statePath = join(tempConfigDir(), 'state.json');
    const first = await startEmulator({ port: 0, apiKey: 'sk_state', statePath });
    const id = (await call(first, 'POST', '/v1/agents', { body: { name: 'kept', model: 'm' } })).body.id;
    await call(first, 'PATCH', `/v1/agents/${id}`, { body: { system: 'v2' } });
    await first.close();
    expect(existsSync(`${statePath}.tmp`)).toBe(false);
    expect(() => JSON.parse(readFileSync(statePath, 'utf8'))).not.toThrow();
    const second = await startEmulator({ port: 0, apiKey: 'sk_state', statePath });
    try {
      expect((await call(second, 'GET', `/v1/agents/${id}`)).body).toMatchObject({ name: 'kept', system: 'v2', version: 2 });
      expect((await call(second, 'GET', `/v1/agents/${id}?version=1`)).body.system).toBe('');
    } finally {
      await second.close();
    }
  });
});
