import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
let agent: string;

beforeAll(async () => {
  for (const name of ['a1', 'a2', 'a3']) agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'm' } })).body.id;
  await call(t.emu, 'PATCH', `/v1/agents/${agent}`, { body: { system: 'v2' } });
});

const ids = (stdout: string): string[] => JSON.parse(stdout).map((x: { id: string; version?: number }) => x.version ?? x.id);

describe('a list cut at one page says so on a terminal', () => {
  it('one page of two: stderr says 2 were shown and gives --all and the --page-token that lists the rest', async () => {
    const r = await svc(['agents', 'list', '--page-size', '2'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toHaveLength(2);
    const token = /^2 shown, more remain: --all lists every one, or --page-token (\S+) for the next page\n$/.exec(r.stderr)?.[1];
    expect(token, r.stderr).toBeDefined();
    const rest = await svc(['agents', 'list', '--page-size', '2', '--page-token', token!], { env: env(), stderrTTY: true });
    expect(ids(rest.stdout)).toHaveLength(1);
    expect(rest.stderr).toBe('');
  });

  it('--limit cut inside a page offers --all only (the next page token would skip the rest of the page)', async () => {
    const r = await svc(['agents', 'list', '--limit', '1', '--page-size', '3'], { env: env(), stderrTTY: true });
    expect(ids(r.stdout)).toHaveLength(1);
    expect(r.stderr).toBe('1 shown, more remain: --all lists every one\n');
  });

  it('says nothing when the list is complete (--all, or one page holds everything) or stderr is not a terminal', async () => {
    for (const args of [
      ['--all', '--page-size', '1'],
      ['--page-size', '3'],
      ['--limit', '3'],
    ]) {
      const r = await svc(['agents', 'list', ...args], { env: env(), stderrTTY: true });
      expect([ids(r.stdout).length, r.stderr]).toEqual([3, '']);
    }
    const piped = await svc(['agents', 'list', '--page-size', '2'], { env: env() });
    expect([ids(piped.stdout).length, piped.stderr]).toEqual([2, '']);
  });

  it('a list under a parent (agents versions) says so too', async () => {
    const r = await svc(['agents', 'versions', agent, '--page-size', '1'], { env: env(), stderrTTY: true });
    expect(ids(r.stdout)).toEqual([2]);
    expect(r.stderr).toMatch(/^1 shown, more remain: --all lists every one, or --page-token \S+ for the next page\n$/);
  });
});
