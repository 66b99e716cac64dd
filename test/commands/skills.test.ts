// Rules proved here: R-SKILL-1, R-SKILL-2, R-SKILL-3, R-SKILL-4, R-CONF-11, R-IDEM-12
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReferences } from '../../src/api/checks/references';
import { UsageError } from '../../src/runtime/errors';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const requests = (): Promise<number> => requestCount(t.emu);

function pkg(name: string, content: Buffer): { dir: string; path: string } {
  const dir = tempConfigDir();
  writeFileSync(join(dir, name), content);
  return { dir, path: join(dir, name) };
}

describe('svc skills', () => {
  it('R-SKILL-1 R-SKILL-3 creates a skill from a package with name, description and categories; the server holds the bytes', async () => {
    const content = randomBytes(50_000);
    const { path } = pkg('reviewer.zip', content);
    const r = await svc(
      ['skills', 'create', path, '--name', 'reviewer', '--description', 'Reviews code', '--categories', 'dev_tools,productivity', '--debug'],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> POST \S+\/v1\/skills attempt=1 idempotency-key=\S+/);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ name: 'reviewer', description: 'Reviews code', categories: ['dev_tools', 'productivity'], latest_version: 1 });
    const versions = (await call(t.emu, 'GET', `/v1/skills/${s.id}/versions`)).body.items;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ version: 1, filename: 'reviewer.zip', size_bytes: content.length, sha256: sha(content) });
  });

  it('--file works like the argument; giving two different packages is exit 2', async () => {
    const { dir } = pkg('a.zip', Buffer.from('a'));
    writeFileSync(join(dir, 'b.zip'), 'b');
    const ok = await svc(['skills', 'create', '--file', 'a.zip', '-q'], { env: env(), cwd: dir });
    expect(ok.code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/skills/${ok.stdout.trim()}`)).body.name).toBe('a');
    const before = await requests();
    const bad = await svc(['skills', 'create', 'a.zip', '--file', 'b.zip'], { env: env(), cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: give the package once: a.zip or --file b.zip\n');
    expect(await requests()).toBe(before);
  });

  it('R-SKILL-2 adds immutable versions, lists them newest first and downloads each one byte for byte', async () => {
    const v1 = randomBytes(10_000);
    const v2 = randomBytes(12_000);
    const { dir, path } = pkg('skill.zip', v1);
    const id = (await svc(['skills', 'create', path, '-q'], { env: env() })).stdout.trim();
    writeFileSync(join(dir, 'skill-v2.zip'), v2);
    const added = await svc(['skills', 'create-version', id, 'skill-v2.zip'], { env: env(), cwd: dir });
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ skill_id: id, version: 2, sha256: sha(v2) });

    const listed = JSON.parse((await svc(['skills', 'versions', id], { env: env() })).stdout);
    expect(listed.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const table = await svc(['skills', 'versions', id], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^VERSION\s+FILENAME\s+SIZE\s+CREATED$/);

    const latest = await svc(['skills', 'download', id, '-O', 'latest.zip'], { env: env(), cwd: dir });
    expect(latest.code).toBe(0);
    expect(sha(readFileSync(join(dir, 'latest.zip')))).toBe(sha(v2));
    const first = await svc(['skills', 'download', id, '--version', '1', '-O', 'first.zip'], { env: env(), cwd: dir });
    expect(first.code).toBe(0);
    expect(sha(readFileSync(join(dir, 'first.zip')))).toBe(sha(v1));
  });

  it('R-SKILL-4 lists with --category and shows the columns on a terminal', async () => {
    const { path } = pkg('finance.zip', Buffer.from('f'));
    const id = (await svc(['skills', 'create', path, '--name', 'ledger', '--categories', 'finance', '-q'], { env: env() })).stdout.trim();
    const ids = (await svc(['skills', 'list', '--category', 'finance', '--all', '-q'], { env: env() })).stdout.trim().split('\n');
    expect(ids).toEqual([id]);
    const table = await svc(['skills', 'list', '--category', 'finance'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout).toMatch(/^ID\s+NAME\s+LATEST\s+CATEGORIES\s+UPDATED\n/);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+ledger\\s+1\\s+finance\\s`));
  });

  it('archives and deletes a skill', async () => {
    const { path } = pkg('old.zip', Buffer.from('o'));
    const id = (await svc(['skills', 'create', path, '-q'], { env: env() })).stdout.trim();
    const a = await svc(['skills', 'archive', id], { env: env() });
    expect(JSON.parse(a.stdout).archived_at).toBeTruthy();
    const d = await svc(['skills', 'delete', id], { env: env() });
    expect(JSON.parse(d.stdout)).toEqual({ id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/skills/${id}`)).status).toBe(404);
  });

  it('a missing package is exit 2 with one error line and no request', async () => {
    const before = await requests();
    const r = await svc(['skills', 'create', 'missing.zip'], { env: env(), cwd: tempConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: cannot read missing.zip: no such file\n');
    const none = await svc(['skills', 'create'], { env: env() });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('error: give the skill package to upload\n');
    expect(await requests()).toBe(before);
  });
});

describe('skill references (client-side check)', () => {
  const refs = (skills: unknown[]) => () => checkReferences({ skills });

  it('R-CONF-11 refuses "latest" and an exact version for one skill_id, naming the field', () => {
    expect(
      refs([
        { skill_id: 's1', version: 'latest' },
        { skill_id: 's1', version: 2 },
      ]),
    ).toThrow(UsageError);
    expect(
      refs([
        { skill_id: 's1', version: '3' },
        { skill_id: 's1', version: 'latest' },
      ]),
    ).toThrow('skills[1].version: skill s1 is referenced both as "latest" and as an exact version');
    expect(() =>
      checkReferences({
        agent_overrides: {
          skills: [
            { skill_id: 's', version: 'latest' },
            { skill_id: 's', version: 1 },
          ],
        },
      }),
    ).toThrow(/^agent_overrides\.skills\[1\]\.version/);
  });

  it('accepts each reading on its own, different skills, and an omitted version next to either', () => {
    expect(
      refs([
        { skill_id: 's1', version: 'latest' },
        { skill_id: 's2', version: 1 },
      ]),
    ).not.toThrow();
    expect(refs([{ skill_id: 's1', version: 'latest' }, { skill_id: 's1' }])).not.toThrow();
    expect(
      refs([
        { skill_id: 's1', version: 1 },
        { skill_id: 's1', version: 2 },
      ]),
    ).not.toThrow();
    expect(() => checkReferences({ agent_overrides: { skills: null } })).not.toThrow();
  });
});
