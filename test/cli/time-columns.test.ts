import { describe, expect, it } from 'vitest';
import { age } from '../../src/output/age';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const now = Date.parse('2026-11-25T12:00:00Z');

describe('times in tables are ages', () => {
  it('age() says how long ago, in the largest whole unit', () => {
    expect(age('2026-11-25T11:59:55Z', now)).toBe('5s ago');
    expect(age('2026-11-25T11:57:00Z', now)).toBe('3m ago');
    expect(age('2026-11-25T07:00:00Z', now)).toBe('5h ago');
    expect(age('2026-11-20T12:00:00Z', now)).toBe('5d ago');
    expect(age('2026-11-25T12:02:00Z', now)).toBe('in 2m');
  });

  it('what is not a time is shown as it came', () => {
    for (const v of [undefined, null, '', 'soon', 42]) expect(age(v, now)).toBe(v);
  });

  it('agents list on a terminal shows UPDATED as an age; json keeps the service ISO time', async () => {
    const created = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'aged', model: 'm' } })).body;
    const table = await svc(['agents', 'list'], { env: { ...emuEnv(t.emu), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.code).toBe(0);
    const row = table.stdout.split('\n').find((l) => l.startsWith(created.id));
    expect(row).toMatch(/\d+s ago$/);
    expect(table.stdout).not.toContain(created.updated_at);
    const json = await svc(['agents', 'list'], { env: emuEnv(t.emu) });
    expect(JSON.parse(json.stdout).find((a: { id: string }) => a.id === created.id).updated_at).toBe(created.updated_at);
  });
});
