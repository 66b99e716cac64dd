// Rules proved here: R-REQ-12 — the CLI clears a field in a PATCH with its empty value, never null.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/apply/diff';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => ({ ...emuEnv(t.emu), NO_COLOR: '1' });

function file(text: string): { dir: string; path: string } {
  const dir = tempConfigDir();
  writeFileSync(join(dir, 'doc.yaml'), text);
  return { dir, path: 'doc.yaml' };
}

describe('clearing fields in a PATCH', () => {
  it('R-REQ-12 apply turns a null in the file into the field\'s empty value ("", [], {}), never null; metadata keys are removed by name', () => {
    const live = {
      id: 'agent_1',
      name: 'a',
      description: 'old',
      tools: [{ type: 'custom', name: 't' }],
      metadata: { team: 'x' },
      config: { proxy: { mode: 'limited', hosts: ['a.example'] } },
    };
    const doc = { name: 'a', description: null, tools: null, metadata: null, config: { proxy: { mode: 'limited', hosts: null } } };
    const { patch } = plan(doc, live, []);
    // metadata is a patch (docs/decisions/metadata.md): `{}` would keep every key, so each key is removed by name.
    expect(patch).toEqual({ description: '', tools: [], metadata: { team: null }, config: { proxy: { mode: 'limited', hosts: [] } } });
    expect(JSON.stringify({ ...patch, metadata: undefined })).not.toContain('null');
  });

  it('R-REQ-12 svc agents apply with null members clears them on the server (the PATCH carries no null)', async () => {
    const created = await call(t.emu, 'POST', '/v1/agents', {
      body: { name: 'clear-me', model: 'm', description: 'old', system: 'sys', metadata: { team: 'core' }, tools: [{ type: 'custom', name: 'lookup' }] },
    });
    const f = file('name: clear-me\nmodel: m\ndescription: null\nsystem: ""\nmetadata: null\ntools: []\n');
    const r = await svc(['agents', 'apply', f.path, '-o', 'json'], { env: env(), cwd: f.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'updated', id: created.body.id });
    const after = (await call(t.emu, 'GET', `/v1/agents/${created.body.id}`)).body;
    expect(after).toMatchObject({ description: '', system: '', metadata: {}, tools: [], version: 2 });
  });

  it('R-REQ-12 svc agents update --description "" sends the empty string', async () => {
    const created = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'clear-flag', model: 'm', description: 'old' } });
    const r = await svc(['agents', 'update', created.body.id, '--description', '', '-o', 'json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).description).toBe('');
    expect((await call(t.emu, 'GET', `/v1/agents/${created.body.id}`)).body.description).toBe('');
  });
});
