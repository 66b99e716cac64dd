import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
let agent: string;
let session: string;

beforeAll(async () => {
  for (const name of ['a1', 'a2', 'a3']) agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'm' } })).body.id;
  await call(t.emu, 'PATCH', `/v1/agents/${agent}`, { body: { system: 'v2' } });
  session = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent } })).body.id;
  for (const text of ['one', 'two']) expect((await svc(['sessions', 'send', session, '--text', text], { env: env() })).code).toBe(0);
  await vi.waitFor(async () => expect((await call(t.emu, 'GET', `/v1/sessions/${session}/events`)).body.items.length).toBeGreaterThan(1), { timeout: 10_000 });
});

const ids = (stdout: string): string[] => JSON.parse(stdout).map((x: { id: string; version?: number }) => x.version ?? x.id);

describe('a list cut by --limit or a page says so on stderr, never on stdout', () => {
  it('one page of two: stderr says more remain, with --all and the --page-token that lists the rest', async () => {
    const r = await svc(['agents', 'list', '--page-size', '2'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toHaveLength(2);
    const token = /^more: use --all, or --page-token (\S+) for the next page\n$/.exec(r.stderr)?.[1];
    expect(token, r.stderr).toBeDefined();
    const rest = await svc(['agents', 'list', '--page-size', '2', '--page-token', token!], { env: env(), stderrTTY: true });
    expect(ids(rest.stdout)).toHaveLength(1);
    expect(rest.stderr).toBe('');
  });

  it('--limit cut inside the last page says how many more: "2 more: use --all"', async () => {
    const r = await svc(['agents', 'list', '--limit', '1', '--page-size', '3'], { env: env(), stderrTTY: true });
    expect(ids(r.stdout)).toHaveLength(1);
    expect(r.stderr).toBe('2 more: use --all\n');
  });

  it('piped (stdout and stderr not terminals) the notice still goes to stderr, and stdout stays valid JSON', async () => {
    const piped = await svc(['agents', 'list', '--page-size', '2'], { env: env() });
    expect(ids(piped.stdout)).toHaveLength(2);
    expect(piped.stderr).toMatch(/^more: use --all/);
    const q = await svc(['agents', 'list', '--limit', '2', '-q'], { env: env() });
    expect(q.stdout.trim().split('\n')).toHaveLength(2);
    expect(q.stderr).toMatch(/^more: use --all/);
  });

  it('says nothing when the list is complete (--all, or one page holds everything)', async () => {
    for (const args of [
      ['--all', '--page-size', '1'],
      ['--page-size', '3'],
      ['--limit', '3'],
    ]) {
      const r = await svc(['agents', 'list', ...args], { env: env(), stderrTTY: true });
      expect([ids(r.stdout).length, r.stderr]).toEqual([3, '']);
    }
  });

  it('a list under a parent (agents versions) says so too', async () => {
    const r = await svc(['agents', 'versions', agent, '--page-size', '1'], { env: env() });
    expect(ids(r.stdout)).toEqual([2]);
    expect(r.stderr).toMatch(/^more: use --all, or --page-token \S+ for the next page\n$/);
  });

  it('sessions events cut by --limit says so', async () => {
    const r = await svc(['sessions', 'events', session, '--limit', '1'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr).toMatch(/more: use --all/);
  });

  it('files list cut by --limit says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-list-rest-'));
    for (const name of ['a.txt', 'b.txt']) {
      writeFileSync(join(dir, name), name);
      expect((await svc(['files', 'upload', join(dir, name)], { env: env() })).code).toBe(0);
    }
    const all = await svc(['files', 'list'], { env: env() });
    const count = JSON.parse(all.stdout).length;
    expect(count).toBeGreaterThan(1);
    const r = await svc(['files', 'list', '--limit', '1'], { env: env() });
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr).toMatch(/more: use --all/);
  });
});
