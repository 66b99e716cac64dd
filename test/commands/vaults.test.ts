// Rules proved here: R-CONF-37, R-CONF-34
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const SECRET = 'ghp_ThisIsTheSecretValue42';
const requests = (): Promise<number> => requestCount(t.emu);
/** What the emulator keeps aside for sessions: the value no endpoint returns. */
const storedValue = (id: string): string | undefined => t.emu.collection('vault_credentials', 'cred', 'credential').get(id)?._value;

async function vault(name: string): Promise<string> {
  const r = await svc(['vaults', 'create', '--name', name, '-o', 'id'], { env: env() });
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

describe('svc vaults', () => {
  it('creates, updates, lists, archives and deletes a vault', async () => {
    const id = await vault('prod');
    const u = await svc(['vaults', 'update', id, '--description', 'production secrets'], { env: env() });
    expect(JSON.parse(u.stdout).description).toBe('production secrets');
    const table = await svc(['vaults', 'list', '--all'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+DESCRIPTION\s+UPDATED$/);
    expect(table.stdout).toContain(id);
    expect(JSON.parse((await svc(['vaults', 'archive', id], { env: env() })).stdout).archived_at).toBeTruthy();
    expect((await svc(['vaults', 'delete', id], { env: env() })).code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/vaults/${id}`)).status).toBe(404);
  });

  it('R-CONF-37 creates a credential from --value-stdin; the value reaches the server and is never printed, even with --debug', async () => {
    const v = await vault('stdin-vault');
    const r = await svc(['vaults', 'credentials', 'create', v, '--name', 'github', '--type', 'static_bearer', '--value-stdin', '--debug'], {
      env: env(),
      stdin: SECRET + '\n',
    });
    expect(r.code).toBe(0);
    const cred = JSON.parse(r.stdout);
    expect(cred).toMatchObject({ name: 'github', type: 'static_bearer' });
    expect(cred).not.toHaveProperty('value');
    expect(r.stderr).toMatch(/debug: > POST .*\/credentials/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    // One trailing newline is the shell's, not the secret's.
    expect(storedValue(cred.id)).toBe(SECRET);
    for (const args of [
      ['list', v],
      ['get', v, cred.id],
    ]) {
      for (const fmt of ['json', 'yaml', 'table']) {
        const out = await svc(['vaults', 'credentials', ...args, '-o', fmt], { env: env() });
        expect(out.stdout, `${args[0]} ${fmt}`).toContain('github');
        expect(out.stdout + out.stderr).not.toContain(SECRET);
      }
    }
  });

  it('reads the value from --value-file and from --value -, and updates it without printing it', async () => {
    const v = await vault('file-vault');
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'token.txt'), SECRET);
    const r = await svc(['vaults', 'credentials', 'create', v, '--name', 'DB_URL', '--type', 'environment_variable', '--value-file', 'token.txt'], {
      env: env(),
      cwd: dir,
    });
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).id;
    expect(storedValue(id)).toBe(SECRET);
    const u = await svc(['vaults', 'credentials', 'update', v, id, '--value', '-', '--debug'], { env: env(), stdin: 'rotated-' + SECRET });
    expect(u.code).toBe(0);
    expect(storedValue(id)).toBe('rotated-' + SECRET);
    expect(u.stdout + u.stderr).not.toContain(SECRET);
  });

  it('refuses a value on the command line without echoing it: exit 2, no request', async () => {
    const v = await vault('argv-vault');
    const before = await requests();
    for (const args of [
      ['--name', 'x', '--type', 'static_bearer', '--value', SECRET],
      ['--data', JSON.stringify({ name: 'x', type: 'static_bearer', value: SECRET })],
    ]) {
      const r = await svc(['vaults', 'credentials', 'create', v, ...args], { env: env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: refusing .*command line|^error: refusing a credential value inside inline --data/);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
    expect(await requests()).toBe(before);
  });

  it('a static_bearer credential with no value and no terminal is exit 2, no request', async () => {
    const v = await vault('novalue-vault');
    const before = await requests();
    const r = await svc(['vaults', 'credentials', 'create', v, '--name', 'x', '--type', 'static_bearer'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['error: a static_bearer credential needs a value: --value-stdin, --value - or --value-file']);
    expect(await requests()).toBe(before);
  });

  it('R-CONF-34 an mcp_oauth credential needs no value; --egress-environment "" clears its binding', async () => {
    const v = await vault('oauth-vault');
    const e = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'egress' } })).body.id;
    const c = await svc(['vaults', 'credentials', 'create', v, '--name', 'linear', '--type', 'mcp_oauth', '--egress-environment', e], { env: env() });
    expect(JSON.parse(c.stdout).egress_environment_id).toBe(e);
    const id = JSON.parse(c.stdout).id;
    const u = await svc(['vaults', 'credentials', 'update', v, id, '--egress-environment', ''], { env: env() });
    expect(JSON.parse(u.stdout).egress_environment_id).toBeNull();
    const d = await svc(['vaults', 'credentials', 'delete', v, id], { env: env() });
    expect(JSON.parse(d.stdout)).toEqual({ id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/vaults/${v}/credentials/${id}`)).status).toBe(404);
  });

  it('every verb has an example in --help', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete', 'archive']) {
      expect((await svc(['vaults', verb, '--help'])).stdout, verb).toMatch(/Examples:\n\s+\$ svc vaults /);
    }
    for (const verb of ['list', 'get', 'create', 'update', 'delete']) {
      expect((await svc(['vaults', 'credentials', verb, '--help'])).stdout, verb).toMatch(/Examples:\n\s+\$ .*svc vaults credentials /);
    }
  });
});
