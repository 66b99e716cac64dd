import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('svc api', () => {
  it('prints the body as received and pages with --paginate', async () => {
    for (let i = 0; i < 3; i++) await call(t.emu, 'POST', '/v1/agents', { body: { name: `raw-${i}`, model: 'm' } });
    const r = await svc(['api', 'GET', '/v1/agents', '-F', 'page_size=2', '--paginate'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const pages = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0].items).toHaveLength(2);
    expect(pages[pages.length - 1].next_page_token).toBeNull();
  });

  it('sends -F fields as a typed JSON body on POST', async () => {
    const r = await svc(['api', 'POST', '/v1/agents', '-F', 'name=typed', '-F', 'model=m'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'typed', version: 1 });
  });

  it('maps an error status to its exit code with nothing on stdout', async () => {
    const r = await svc(['api', 'GET', '/v1/agents/missing'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
  });

  it('refuses an Authorization header', async () => {
    const r = await svc(['api', 'GET', '/v1/agents', '-H', 'Authorization: Bearer x'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
  });
});

describe('svc doctor', () => {
  it('passes every check against the emulator', async () => {
    const r = await svc(['doctor', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const checks = JSON.parse(r.stdout);
    expect(checks.map((c: { check: string }) => c.check)).toEqual(['config', 'credential', 'connectivity', 'version header', 'clock']);
    expect(checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
  });

  it('fails the version check with a fix when the version header is refused', async () => {
    const r = await svc(['doctor', '-o', 'json'], { env: emuEnv(t.emu, { SVC_API_VERSION: '2026-09-01' }) });
    expect(r.code).toBe(3);
    const failed = JSON.parse(r.stdout).filter((c: { ok: boolean }) => !c.ok);
    expect(failed.map((c: { check: string }) => c.check)).toContain('version header');
  });

  it('fails connectivity with exit 10 when nothing listens', async () => {
    const r = await svc(['doctor', '-o', 'json', '--max-retries', '0'], { env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: 'k' } });
    expect(r.code).toBe(10);
  });
});

describe('svc api PATH picks the method as gh api does', () => {
  it('PATH alone is a GET', async () => {
    const r = await svc(['api', '/v1/agents'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout).items)).toBe(true);
  });

  it('PATH with a body (--data or -F) is a POST', async () => {
    const d = await svc(['api', '/v1/agents', '--data', '{"name":"by-data","model":"m"}'], { env: emuEnv(t.emu) });
    expect(d.code).toBe(0);
    expect(JSON.parse(d.stdout)).toMatchObject({ name: 'by-data', version: 1 });
    const f = await svc(['api', '/v1/agents', '-F', 'name=by-field', '-F', 'model=m'], { env: emuEnv(t.emu) });
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ name: 'by-field' });
  });

  it('-X METHOD chooses it; a second, different method is exit 2', async () => {
    const id = JSON.parse((await svc(['api', '/v1/agents', '-F', 'name=doomed', '-F', 'model=m'], { env: emuEnv(t.emu) })).stdout).id;
    const del = await svc(['api', '-X', 'DELETE', `/v1/agents/${id}`], { env: emuEnv(t.emu) });
    expect(del.code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).status).toBe(404);
    const twice = await svc(['api', 'GET', '/v1/agents', '-X', 'POST'], { env: emuEnv(t.emu) });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('the method is given twice');
  });
});
