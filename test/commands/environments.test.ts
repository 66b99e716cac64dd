// Rules proved here: R-CONF-28, R-CONF-29, R-AUTH-5
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const requests = (): Promise<number> => requestCount(t.emu);

describe('svc environments', () => {
  it('creates a self-hosted environment from flags and prints it as JSON when piped', async () => {
    const r = await svc(['environments', 'create', '--name', 'runners', '--self-hosted', '--description', 'CI'], { env: env() });
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ name: 'runners', description: 'CI', config: { type: 'self_hosted' } });
    expect((await call(t.emu, 'GET', `/v1/environments/${created.id}`)).body.config).toEqual({ type: 'self_hosted' });
  });

  it('builds a cloud proxy config from --proxy-mode and repeated --proxy-host, shown in the table', async () => {
    const r = await svc(
      ['environments', 'create', '--name', 'limited', '--proxy-mode', 'limited', '--proxy-host', 'pypi.org', '--proxy-host', 'github.com', '-o', 'id'],
      { env: env() },
    );
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect((await call(t.emu, 'GET', `/v1/environments/${id}`)).body.config).toEqual({
      type: 'cloud',
      proxy: { mode: 'limited', hosts: ['pypi.org', 'github.com'] },
    });
    const table = await svc(['environments', 'list', '--all'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+TYPE\s+PROXY\s+UPDATED$/);
    expect(table.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(/limited\s+cloud\s+limited/);
  });

  it('R-CONF-28 R-CONF-29 route_all with no --proxy-host sends an empty host list, which the service accepts', async () => {
    const r = await svc(['environments', 'create', '--name', 'all-through-proxy', '--proxy-mode', 'route_all'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).config).toEqual({ type: 'cloud', proxy: { mode: 'route_all', hosts: [] } });
  });

  it('updates the proxy with PATCH, keeping the hosts given in --data', async () => {
    const id = (await svc(['environments', 'create', '--name', 'to-update', '--cloud', '-o', 'id'], { env: env() })).stdout.trim();
    const r = await svc(
      [
        'environments',
        'update',
        id,
        '--data',
        '{"config":{"type":"cloud","proxy":{"mode":"limited","hosts":["a.example"]}}}',
        '--proxy-mode',
        'route_all',
        '--description',
        'changed',
      ],
      { env: env() },
    );
    expect(r.code).toBe(0);
    const held = (await call(t.emu, 'GET', `/v1/environments/${id}`)).body;
    expect(held).toMatchObject({ description: 'changed', config: { type: 'cloud', proxy: { mode: 'route_all', hosts: ['a.example'] } } });
  });

  it('lists none with --official-only (the emulator holds no official environments) and some without it', async () => {
    await svc(['environments', 'create', '--name', 'project-env', '--cloud'], { env: env() });
    expect(JSON.parse((await svc(['environments', 'list', '--official-only'], { env: env() })).stdout)).toEqual([]);
    expect(JSON.parse((await svc(['environments', 'list', '--all'], { env: env() })).stdout).length).toBeGreaterThan(0);
  });

  it('R-AUTH-5 archives (then hidden from list), deletes, and a get after delete is exit 6', async () => {
    const id = (await svc(['environments', 'create', '--name', 'doomed', '--cloud', '-o', 'id'], { env: env() })).stdout.trim();
    const a = await svc(['environments', 'archive', id], { env: env() });
    expect(JSON.parse(a.stdout).archived_at).toBeTruthy();
    const ids = JSON.parse((await svc(['environments', 'list', '--all'], { env: env() })).stdout).map((e: { id: string }) => e.id);
    expect(ids).not.toContain(id);
    const d = await svc(['environments', 'delete', id], { env: env() });
    expect(JSON.parse(d.stdout)).toEqual({ id, deleted: true });
    const g = await svc(['environments', 'get', id], { env: env() });
    expect(g.code).toBe(6);
    expect(g.stdout).toBe('');
    expect(g.stderr).toMatch(/^error: .*type=resource_not_found_error status=404/);
  });

  it.each([
    [['--proxy-mode', 'everything']],
    [['--self-hosted', '--proxy-host', 'a.example']],
    [['--proxy-host', 'a.example']],
    [['--self-hosted', '--cloud']],
    [['--data', '{"config":{"type":"moon"}}']],
  ])('refuses bad config input %j with exit 2, one error line and no request', async (flags) => {
    const before = await requests();
    const r = await svc(['environments', 'create', '--name', 'bad', ...flags], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
    expect(await requests()).toBe(before);
  });

  it('every verb has an example in --help', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete', 'archive', 'apply']) {
      const h = await svc(['environments', verb, '--help']);
      expect(h.stdout, verb).toMatch(/Examples:\n\s+\$ svc environments /);
    }
  });
});
