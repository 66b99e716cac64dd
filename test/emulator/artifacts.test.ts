// Rules proved here: R-FILE-12, R-PAGE-1, R-REQ-14
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const deliver = (session: string, name: string, text: string, type = 'text/markdown') =>
  t.emu.services.artifacts!.deliver(session, name, Buffer.from(text), type);

async function content(path: string): Promise<{ type: string | null; text: string }> {
  const res = await fetch(t.emu.url + path, { headers: { authorization: `Bearer ${t.emu.apiKey}`, 'svc-api-version': '2026-09-01-beta' } });
  return { type: res.headers.get('content-type'), text: await res.text() };
}

describe('emulator: artifacts', () => {
  it('R-PAGE-1 artifacts list by session_id', async () => {
    const a = deliver('sess_a', 'report.md', '# a');
    deliver('sess_b', 'other.md', '# b');
    const r = await call(t.emu, 'GET', '/v1/artifacts?session_id=sess_a');
    expect(r.body.items.map((x: any) => x.id)).toEqual([a.id]);
    expect(r.body.items[0]).toMatchObject({ session_id: 'sess_a', name: 'report.md', latest_version: 1 });
  });

  it('R-FILE-12 content without version is the latest; with version it is that one', async () => {
    deliver('sess_v', 'plan.md', 'first');
    const second = deliver('sess_v', 'plan.md', 'second');
    expect(second.version).toBe(2);
    expect(await content(`/v1/artifacts/${second.id}/content`)).toEqual({ type: 'text/markdown', text: 'second' });
    expect((await content(`/v1/artifacts/${second.id}/content?version=1`)).text).toBe('first');
    const versions = await call(t.emu, 'GET', `/v1/artifacts/${second.id}/versions`);
    expect(versions.body.items.map((v: any) => v.version)).toEqual([2, 1]);
  });

  it('R-REQ-14 a bad version is 400 invalid_parameter_error and a missing one 404', async () => {
    const a = deliver('sess_x', 'x.txt', 'x');
    expect((await call(t.emu, 'GET', `/v1/artifacts/${a.id}/content?version=zero`)).body.error.param).toBe('query.version');
    expect((await call(t.emu, 'GET', `/v1/artifacts/${a.id}/content?version=7`)).status).toBe(404);
    expect((await call(t.emu, 'GET', `/v1/artifacts/${a.id}`)).body.name).toBe('x.txt');
  });
});
