// Rules proved here: R-PLUG-1..9, R-PLUG-11..20, R-LIMIT-5, R-IDEM-3, R-IDEM-4, R-CONF-12..15
import { describe, expect, it } from 'vitest';
import { checkPluginRefs } from '../../src/emulator/resources/plugins';
import { MiB } from '../../src/wire/limits';
import { call, useEmulator } from '../helpers/emulator';
import { zip } from '../helpers/zip';

const t = useEmulator();

const pkg = (manifest: Record<string, unknown>) => zip({ 'plugin.json': JSON.stringify(manifest), 'skills/a/SKILL.md': '# a' });

async function form(file: Buffer): Promise<{ raw: Buffer; headers: Record<string, string> }> {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'plugin.zip');
  const res = new Response(fd);
  return { raw: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

async function post(path: string, file: Buffer, headers: Record<string, string> = {}) {
  const f = await form(file);
  return call(t.emu, 'POST', path, { raw: f.raw, headers: { ...f.headers, ...headers } });
}

const publish = (manifest: Record<string, unknown>) => post('/v1/plugins', pkg(manifest));
const names = (r: { body: { items: Array<{ name: string }> } }) => r.body.items.map((p) => p.name);

/** What a reference check rejects with, as `{type, param}` (both undefined when it accepts). */
function refError(refs: any[]): { type?: string; param?: string } {
  let error: any;
  try {
    checkPluginRefs(t.emu, refs, 'body.plugins');
  } catch (e) {
    error = e;
  }
  return { type: error?.type, param: error?.param };
}

describe('emulator: plugins', () => {
  it('R-PLUG-11 publishing a zip is 201 with the plugin, its version and the validation result', async () => {
    const r = await publish({ name: 'weather', version: '1.0.0', description: 'Forecasts', keywords: ['Rain'], categories: ['featured'] });
    expect(r.status).toBe(201);
    expect(r.body.plugin).toMatchObject({
      name: 'weather',
      scope: 'project',
      status: 'active',
      latest_version: '1.0.0',
      version: '1.0.0',
      categories: ['featured'],
    });
    expect(r.body.version).toMatchObject({ plugin_id: r.body.plugin.id, version: '1.0.0' });
    expect(r.body.validation).toMatchObject({ ok: true, errors: [] });
  });

  it('R-PLUG-12 R-IDEM-3 R-IDEM-4 a publish with the same Idempotency-Key and bytes replays', async () => {
    const f = await form(pkg({ name: 'idem-plugin', version: '0.1.0' }));
    const headers = { ...f.headers, 'idempotency-key': 'plug-k1' };
    const a = await call(t.emu, 'POST', '/v1/plugins', { raw: f.raw, headers });
    const b = await call(t.emu, 'POST', '/v1/plugins', { raw: f.raw, headers });
    expect(b.status).toBe(201);
    expect(b.body.plugin.id).toBe(a.body.plugin.id);
    expect(names(await call(t.emu, 'GET', '/v1/plugins?query=idem-plugin'))).toEqual(['idem-plugin']);
  });

  it('R-PLUG-14 validate answers 200 ok:false for packages that cannot be published', async () => {
    for (const bad of [Buffer.from('not a zip'), zip({ 'README.md': 'no manifest' }), pkg({ name: 'Bad Name', version: 'one' })]) {
      const r = await post('/v1/plugins/validate', bad);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(false);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    const good = await post('/v1/plugins/validate', pkg({ name: 'never-published', version: '1.0.0' }));
    expect(good.body).toMatchObject({ ok: true, manifest: { name: 'never-published' } });
    expect(names(await call(t.emu, 'GET', '/v1/plugins?query=never-published'))).toEqual([]);
  });

  it('R-PLUG-11 publishing an unpublishable package is 400 invalid_parameter_error on body.file', async () => {
    const r = await post('/v1/plugins', Buffer.from('plain text'));
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.file' });
  });

  it('R-PLUG-13 R-PLUG-15 new versions publish on the plugin and list newest first by semantic version', async () => {
    const p = (await publish({ name: 'semver-order', version: '1.2.0' })).body.plugin;
    for (const version of ['1.10.0', '1.9.0', '2.0.0-beta.1', '2.0.0']) {
      const r = await post(`/v1/plugins/${p.id}/versions`, pkg({ name: 'semver-order', version }));
      expect(r.status).toBe(201);
    }
    const list = await call(t.emu, 'GET', `/v1/plugins/${p.id}/versions`);
    expect(list.body.items.map((v: any) => v.version)).toEqual(['2.0.0', '2.0.0-beta.1', '1.10.0', '1.9.0', '1.2.0']);
    expect((await call(t.emu, 'GET', `/v1/plugins/${p.id}`)).body.latest_version).toBe('2.0.0');
    const dup = await post(`/v1/plugins/${p.id}/versions`, pkg({ name: 'semver-order', version: '1.9.0' }));
    expect(dup.body.error.type).toBe('conflict_error');
  });

  it('R-PLUG-16 a version downloads as application/zip with the published bytes', async () => {
    const bytes = pkg({ name: 'download-me', version: '3.1.4' });
    const p = (await post('/v1/plugins', bytes)).body.plugin;
    const res = await fetch(`${t.emu.url}/v1/plugins/${p.id}/versions/3.1.4/content`, {
      headers: { authorization: `Bearer ${t.emu.apiKey}`, 'svc-api-version': '2026-09-01-beta' },
    });
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('R-PLUG-2 query matches name, description and keywords case-insensitively', async () => {
    await publish({ name: 'kw-match', version: '1.0.0', description: 'x', keywords: ['Telescope'] });
    await publish({ name: 'desc-match', version: '1.0.0', description: 'A TELESCOPE helper' });
    expect(names(await call(t.emu, 'GET', '/v1/plugins?query=telescope'))).toEqual(['kw-match', 'desc-match']);
    expect(names(await call(t.emu, 'GET', '/v1/plugins?query=KW-MATCH'))).toEqual(['kw-match']);
  });

  it('R-PLUG-3 R-PLUG-4 R-PLUG-9 category and scope filter; uncategorised plugins omit categories', async () => {
    const uncategorised = (await publish({ name: 'plain', version: '1.0.0' })).body.plugin;
    expect(uncategorised.categories).toBeUndefined();
    const official = await call(t.emu, 'GET', '/v1/plugins?scope=official');
    expect(official.body.items.length).toBeGreaterThan(0);
    expect(official.body.items.every((p: any) => p.scope === 'official')).toBe(true);
    const project = await call(t.emu, 'GET', '/v1/plugins?scope=project&page_size=1000');
    expect(project.body.items.every((p: any) => p.scope === 'project')).toBe(true);
    const all = await call(t.emu, 'GET', '/v1/plugins?page_size=1000');
    expect(all.body.items).toHaveLength(official.body.items.length + project.body.items.length);
    const learning = await call(t.emu, 'GET', '/v1/plugins?category=learning');
    expect(learning.body.items.every((p: any) => p.categories.includes('learning'))).toBe(true);
    expect((await call(t.emu, 'GET', '/v1/plugins?category=cooking')).body.error.param).toBe('query.category');
  });

  it('R-PLUG-5 scope org or user is 400 invalid_parameter_error', async () => {
    for (const scope of ['org', 'user']) {
      const r = await call(t.emu, 'GET', `/v1/plugins?scope=${scope}`);
      expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'query.scope' });
    }
  });

  it('R-PLUG-6 R-PLUG-8 the list is ordered by ID ascending and pages with next_page_token', async () => {
    const first = await call(t.emu, 'GET', '/v1/plugins?page_size=2');
    const rest = await call(t.emu, 'GET', `/v1/plugins?page_size=1000&page_token=${first.body.next_page_token}`);
    const ids = [...first.body.items, ...rest.body.items].map((p: any) => p.id);
    expect(ids).toEqual([...ids].sort());
    for (const p of first.body.items) expect(Object.keys(p)).toEqual(expect.arrayContaining(['scope', 'status', 'latest_version', 'version']));
  });

  it('R-PLUG-1 official plugins are read-only: archive and new versions are 403 permission_denied_error', async () => {
    const official = (await call(t.emu, 'GET', '/v1/plugins?scope=official')).body.items[0];
    expect((await call(t.emu, 'POST', `/v1/plugins/${official.id}/archive`)).body.error.type).toBe('permission_denied_error');
    const v = await post(`/v1/plugins/${official.id}/versions`, pkg({ name: official.name, version: '9.0.0' }));
    expect(v.status).toBe(403);
  });

  it('R-PLUG-17 R-PLUG-18 R-PLUG-7 R-PLUG-19 R-PLUG-20 archive is 204, hides the plugin, frees its name, keeps exact references', async () => {
    const old = (await publish({ name: 'retired', version: '1.0.0' })).body.plugin;
    const archived = await call(t.emu, 'POST', `/v1/plugins/${old.id}/archive`);
    expect(archived.status).toBe(204);
    expect((await call(t.emu, 'GET', `/v1/plugins/${old.id}`)).status).toBe(404);
    expect(names(await call(t.emu, 'GET', '/v1/plugins?query=retired'))).toEqual([]);
    const again = await publish({ name: 'retired', version: '1.0.0' });
    expect(again.status).toBe(201);
    expect(again.body.plugin.id).not.toBe(old.id);
    expect(checkPluginRefs(t.emu, [{ plugin_id: old.id, version: '1.0.0' }], 'body.plugins')).toEqual([{ plugin_id: old.id, version: '1.0.0' }]);
    expect(refError([{ plugin_id: old.id, version: 'latest' }]).param).toBe('body.plugins[0].plugin_id');
  });

  it('R-PLUG-19 a second active plugin with the same name is 409 conflict_error', async () => {
    await publish({ name: 'unique-name', version: '1.0.0' });
    expect((await publish({ name: 'unique-name', version: '2.0.0' })).body.error.type).toBe('conflict_error');
  });

  it('R-CONF-12 R-CONF-13 R-CONF-14 project references: latest, an exact version, or omitted pinned to the latest', async () => {
    const p = (await publish({ name: 'pinned', version: '1.0.0' })).body.plugin;
    await post(`/v1/plugins/${p.id}/versions`, pkg({ name: 'pinned', version: '1.1.0' }));
    expect(
      checkPluginRefs(t.emu, [{ plugin_id: p.id }, { plugin_id: p.id, version: 'latest' }, { plugin_id: p.id, version: '1.0.0' }], 'body.plugins'),
    ).toEqual([
      { plugin_id: p.id, version: '1.1.0' },
      { plugin_id: p.id, version: 'latest' },
      { plugin_id: p.id, version: '1.0.0' },
    ]);
    expect(refError([{ plugin_id: p.id, version: '0.9.0' }])).toEqual({ type: 'invalid_parameter_error', param: 'body.plugins[0].version' });
  });

  it('R-CONF-15 an official reference with any version is 400 invalid_parameter_error', async () => {
    const official = (await call(t.emu, 'GET', '/v1/plugins?scope=official')).body.items[0];
    expect(checkPluginRefs(t.emu, [{ plugin_id: official.id }], 'body.plugins')).toEqual([{ plugin_id: official.id }]);
    expect(refError([{ plugin_id: official.id, version: 'latest' }])).toEqual({ type: 'invalid_parameter_error', param: 'body.plugins[0].version' });
  });

  it('R-LIMIT-5 a plugin package over 64 MiB is 400 invalid_request_error', async () => {
    const r = await post('/v1/plugins/validate', Buffer.alloc(64 * MiB + 1));
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });
});
