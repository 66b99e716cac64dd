// Rules proved here: R-PLUG-1, R-PLUG-3, R-PLUG-4, R-PLUG-5, R-PLUG-6, R-PLUG-8, R-PLUG-11, R-PLUG-12, R-PLUG-13, R-PLUG-14, R-PLUG-15, R-PLUG-16, R-PLUG-17, R-PLUG-18, R-CONF-15
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReferences } from '../../src/api/checks/references';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator, requestCount } from '../helpers/emulator';
import { zip } from '../helpers/zip';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const requests = (): Promise<number> => requestCount(t.emu);

function plugin(dir: string, file: string, manifest: Record<string, unknown>): Buffer {
  const bytes = zip({ 'plugin.json': JSON.stringify(manifest), 'skills/README.md': `# ${String(manifest.name)}\n` });
  writeFileSync(join(dir, file), bytes);
  return bytes;
}

describe('svc plugins list', () => {
  it('R-PLUG-4 R-PLUG-6 R-PLUG-8 lists official plugins by scope with their columns', async () => {
    const r = await svc(['plugins', 'list', '--scope', 'official'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+SCOPE\s+STATUS\s+LATEST\s+CATEGORIES$/);
    expect(lines.slice(1).every((l) => /\sofficial\s+active\s+1\.0\.0/.test(l))).toBe(true);
    expect(r.stdout).toMatch(/spreadsheet-tools\s+official\s+active\s+1\.0\.0\s+finance,productivity/);
  });

  it('R-PLUG-3 filters by --category and --query', async () => {
    const byCategory = JSON.parse((await svc(['plugins', 'list', '--category', 'learning'], { env: env() })).stdout);
    expect(byCategory.map((p: { name: string }) => p.name)).toEqual(['study-buddy']);
    const byQuery = JSON.parse((await svc(['plugins', 'list', '--query', 'XLSX'], { env: env() })).stdout);
    expect(byQuery.map((p: { name: string }) => p.name)).toEqual(['spreadsheet-tools']);
  });

  it('R-PLUG-5 --scope org is exit 2 with a clear message and no request', async () => {
    const before = await requests();
    for (const scope of ['org', 'user']) {
      const r = await svc(['plugins', 'list', '--scope', scope], { env: env() });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: --scope must be official or project, or omitted for both ("${scope}" is a visibility scope the list filter does not accept)\n`,
      );
    }
    const cat = await svc(['plugins', 'list', '--category', 'games'], { env: env() });
    expect(cat.code).toBe(2);
    expect(cat.stderr).toBe('error: --category must be one of finance, productivity, creative_3d, dev_tools, learning, featured (got "games")\n');
    expect(await requests()).toBe(before);
  });
});

describe('svc plugins publish, versions, download, archive', () => {
  it('R-PLUG-11 R-PLUG-12 R-PLUG-13 R-PLUG-15 R-PLUG-16 publishes, adds a version, lists newest first, downloads exact bytes', async () => {
    const dir = tempConfigDir();
    const v1 = plugin(dir, 'p-1.0.0.zip', { name: 'release-notes', version: '1.0.0', description: 'Writes notes', categories: ['dev_tools'] });
    const pub = await svc(['plugins', 'publish', 'p-1.0.0.zip', '--debug'], { env: env(), cwd: dir });
    expect(pub.code).toBe(0);
    expect(pub.stderr).toMatch(/> POST \S+\/v1\/plugins attempt=1 idempotency-key=\S+/);
    const out = JSON.parse(pub.stdout);
    expect(out).toMatchObject({
      plugin: { name: 'release-notes', scope: 'project', latest_version: '1.0.0' },
      version: { version: '1.0.0', sha256: sha(v1) },
      validation: { ok: true },
    });
    const id = out.plugin.id;

    const v2 = plugin(dir, 'p-1.10.0.zip', { name: 'release-notes', version: '1.10.0' });
    plugin(dir, 'p-1.2.0.zip', { name: 'release-notes', version: '1.2.0' });
    expect((await svc(['plugins', 'publish', 'p-1.10.0.zip', '--plugin', id], { env: env(), cwd: dir })).code).toBe(0);
    expect((await svc(['plugins', 'publish', 'p-1.2.0.zip', '--plugin', id], { env: env(), cwd: dir })).code).toBe(0);
    const versions = JSON.parse((await svc(['plugins', 'versions', id], { env: env() })).stdout);
    expect(versions.map((v: { version: string }) => v.version)).toEqual(['1.10.0', '1.2.0', '1.0.0']);

    const latest = await svc(['plugins', 'download', id, '-O', 'latest.zip'], { env: env(), cwd: dir });
    expect(latest.code).toBe(0);
    expect(sha(readFileSync(join(dir, 'latest.zip')))).toBe(sha(v2));
    const old = await svc(['plugins', 'download', id, '--version', '1.0.0', '-O', 'old.zip'], { env: env(), cwd: dir });
    expect(old.code).toBe(0);
    expect(sha(readFileSync(join(dir, 'old.zip')))).toBe(sha(v1));
  });

  it('R-PLUG-17 R-PLUG-18 archives a project plugin (204), which then leaves the read API', async () => {
    const dir = tempConfigDir();
    plugin(dir, 'gone.zip', { name: 'short-lived', version: '0.1.0' });
    const id = JSON.parse((await svc(['plugins', 'publish', 'gone.zip'], { env: env(), cwd: dir })).stdout).plugin.id;
    const a = await svc(['plugins', 'archive', id, '--debug'], { env: env() });
    expect(a.code).toBe(0);
    expect(a.stderr).toContain(`< 204 POST /v1/plugins/${id}/archive`);
    expect(JSON.parse(a.stdout)).toEqual({ id, archived: true });
    const got = await svc(['plugins', 'get', id], { env: env() });
    expect(got.code).toBe(6);
  });

  it('R-PLUG-1 archiving an official plugin is refused by the service', async () => {
    const official = JSON.parse((await svc(['plugins', 'list', '--scope', 'official', '--limit', '1'], { env: env() })).stdout)[0];
    const r = await svc(['plugins', 'archive', official.id], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: .* \(type=permission_denied_error status=403 /);
  });

  it('a missing package is exit 2 with one error line and no request', async () => {
    const before = await requests();
    const r = await svc(['plugins', 'publish', 'nope.zip'], { env: env(), cwd: tempConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot read nope.zip: no such file\n');
    expect(await requests()).toBe(before);
  });
});

describe('svc plugins validate', () => {
  it('R-PLUG-14 prints the result and exits 0 for a publishable package, publishing nothing', async () => {
    const dir = tempConfigDir();
    plugin(dir, 'ok.zip', { name: 'validated-only', version: '1.0.0' });
    const r = await svc(['plugins', 'validate', 'ok.zip'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, errors: [] });
    const listed = JSON.parse((await svc(['plugins', 'list', '--query', 'validated-only'], { env: env() })).stdout);
    expect(listed).toEqual([]);
  });

  it('R-PLUG-14 prints the result and exits 3 when ok is false', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'bad.zip'), 'this is not a zip');
    const r = await svc(['plugins', 'validate', 'bad.zip'], { env: env(), cwd: dir });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, errors: [{ message: 'the package is not a zip archive' }] });
    expect(r.stderr).toBe('error: bad.zip cannot be published: the package is not a zip archive\n');
  });
});

describe('plugin references (client-side check)', () => {
  it('R-CONF-15 refuses an official reference with any explicit version, before any request', () => {
    expect(() => checkReferences({ plugins: [{ type: 'official', plugin_id: 'p', version: 'latest' }] })).toThrow(
      'plugins[0].version: an official plugin reference must omit version',
    );
    expect(() => checkReferences({ agent_overrides: { plugins: [{ plugin_id: 'a' }, { scope: 'official', plugin_id: 'p', version: null }] } })).toThrow(
      /^agent_overrides\.plugins\[1\]\.version/,
    );
  });

  it('accepts an official reference without version and project references with or without one', () => {
    expect(() =>
      checkReferences({
        plugins: [
          { type: 'official', plugin_id: 'p' },
          { type: 'project', plugin_id: 'q', version: 'latest' },
          { plugin_id: 'r', version: '1.2.0' },
        ],
      }),
    ).not.toThrow();
  });
});
