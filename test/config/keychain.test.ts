// The system keychain: auth login keeps the key there when there is one, the config records only where.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { systemKeychain } from '../../src/config/keychain';
import { svc, tempConfigDir, type SvcResult } from '../helpers/cli';
import { exitCodeFor } from '../../src/runtime/errors';
import { useEmulator } from '../helpers/emulator';
import { describeWith, type Tool } from '../helpers/requires';

const t = useEmulator();

const sleepBin = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();
/** A Secret Service of our own: a private D-Bus session, gnome-keyring in it, and libsecret's client. */
const secretServiceTools: Tool[] = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool'];

/** A folder holding a stand-in `secret-tool` that logs its arguments (one call a line) and then runs `body`. */
function fakeSecretTool(body: string): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kc-bin-'));
  const log = join(dir, 'calls.log');
  writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\necho "$*" >> '${log}'\n${body}\n`);
  chmodSync(join(dir, 'secret-tool'), 0o755);
  return { dir, log };
}
const calls = (log: string): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

/** Every file under `dir`, read whole. */
const filesText = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => readFileSync(join(d.parentPath, d.name), 'utf8'))
    .join('\n');

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

describe('where there is no keychain', () => {
  it('auth login puts the key in the 0600 file with a one-line notice saying why', async () => {
    const dir = tempConfigDir();
    const r = await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url }, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('note:'));
    expect(notes).toEqual([
      `note: no system keychain here (no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)); the API key is in ${join(dir, 'config.json')} (mode 0600)`,
    ]);
    expect(config(dir).profiles.default.api_key).toBe(t.emu.apiKey);
    const status = await svc(['auth', 'status', '-o', 'json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout).api_key_store).toBe('config file');
  });

  it('a Secret Service that refuses (no daemon on the bus) is no keychain: the file, with the reason', async () => {
    const fake = fakeSecretTool(`echo 'secret-tool: The name org.freedesktop.secrets was not provided by any .service files' >&2; exit 1`);
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
    const r = await svc(['auth', 'login', '--with-token'], { env, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('note: no system keychain here (the Secret Service refused the key: secret-tool: The name org.freedesktop.secrets');
    expect(config(dir).profiles.default.api_key).toBe(t.emu.apiKey);
    // The key went to the tool on stdin, never in its arguments.
    expect(calls(fake.log).join('\n')).not.toContain(t.emu.apiKey);
  });

  // A tool that fails before it reads stdin (a key longer than a pipe holds makes the race certain): the reason is its
  // own words, not svc's write to a closed pipe.
  it('a Secret Service tool that exits before reading the key is refused with its reason, not EPIPE', () => {
    const fake = fakeSecretTool(`echo 'secret-tool: The name org.freedesktop.secrets was not provided by any .service files' >&2; exit 1`);
    const keychain = systemKeychain({ PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }, 'linux');
    if (typeof keychain === 'string') throw new Error(keychain);
    expect(() => keychain.store('id', 'label', 'k'.repeat(256 * 1024))).toThrow(
      /^the Secret Service refused the key: secret-tool: The name org\.freedesktop\.secrets was not provided/,
    );
  });

  it('--insecure-storage chooses the file on purpose: the keychain is not asked and there is no notice', async () => {
    const fake = fakeSecretTool('exit 0');
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' };
    const r = await svc(['auth', 'login', '--with-token', '--insecure-storage'], { env, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('note:');
    expect(calls(fake.log)).toEqual([]);
    expect(config(dir).profiles.default.api_key).toBe(t.emu.apiKey);
  });

  it('a profile whose key is in a keychain svc cannot reach here is exit 4 naming why', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { api_key_keychain: 'abc' } } }), { mode: 0o600 });
    const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url } });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: the API key of profile default is in the system keychain, which svc cannot reach here: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)\n',
    );
  });
});

it('config set --insecure-storage on a setting that is no secret is exit 2', async () => {
  const r = await svc(['config', 'set', 'output', 'json', '--insecure-storage']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('error: --insecure-storage is for secrets (api_key, environment_key), not output\n');
});

describe('a keychain that does not answer', () => {
  it('is exit 4 naming it after 3 s, asked once (the error report does not ask again)', async () => {
    const fake = fakeSecretTool(`exec ${sleepBin} 60`);
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { api_key_keychain: 'abc' } } }), { mode: 0o600 });
    const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' };
    const r = await svc(['agents', 'list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: the Secret Service did not answer in 3 s (is it locked, waiting for a password?)\n');
    expect(calls(fake.log)).toEqual(['lookup service svc id abc']);
  }, 30_000);

  it('SVC_API_KEY and --api-key never touch the keychain, even when the profile points there', async () => {
    const fake = fakeSecretTool(`exec ${sleepBin} 60`);
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { api_key_keychain: 'abc' } } }), { mode: 0o600 });
    const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' };
    expect((await svc(['agents', 'list'], { env: { ...env, SVC_API_KEY: t.emu.apiKey } })).code).toBe(0);
    expect((await svc(['agents', 'list', '--api-key', t.emu.apiKey], { env })).code).toBe(0);
    expect(calls(fake.log)).toEqual([]);
  });
});

/**
 * A private Secret Service: gnome-keyring on its own D-Bus session, with its own HOME, for the life of the tests.
 * Its address is what a desktop session would put in DBUS_SESSION_BUS_ADDRESS.
 */
function usePrivateSecretService(): { readonly env: Record<string, string> } {
  const state = { env: {} as Record<string, string> };
  let session: ChildProcess | undefined;
  beforeAll(async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-kc-home-'));
    // The session lasts until its stdin closes (the test's end, or its death): then the bus ends and the keyring daemon with it.
    const script = 'echo pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; echo "$DBUS_SESSION_BUS_ADDRESS"; read _';
    session = spawn('dbus-run-session', ['--', 'sh', '-c', script], { env: { PATH: process.env.PATH, HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
    const first = await new Promise<string>((resolve) => createInterface({ input: session!.stdout! }).once('line', resolve));
    state.env = { HOME: home, DBUS_SESSION_BUS_ADDRESS: first.trim() };
  }, 30_000);
  afterAll(async () => {
    if (!session) return;
    const ended = new Promise((resolve) => session!.once('close', resolve));
    session.stdin!.end();
    await ended;
  });
  return state;
}

describeWith('under a real Secret Service (gnome-keyring on a private D-Bus session)', secretServiceTools, () => {
  const ss = usePrivateSecretService();
  const bundled = useBundledSvc();

  it('the built svc, as a child process in that session, logs in to the keychain and reads the key back from it', async () => {
    const dir = tempConfigDir();
    const env = { ...ss.env, SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url };
    const login = spawnSvc(bundled.bin, ['auth', 'login', '--with-token'], env, 'pipe');
    login.child.stdin!.end(t.emu.apiKey);
    const l = await login.exit;
    expect(l.code).toBe(0);
    expect(l.stderr).toContain('in the Secret Service');
    const list = await spawnSvc(bundled.bin, ['agents', 'list', '-o', 'json'], env).exit;
    expect(list.code).toBe(0);
    const token = await spawnSvc(bundled.bin, ['auth', 'token'], env).exit;
    expect(token.stdout).toBe(`${t.emu.apiKey}\n`);
    expect(filesText(dir)).not.toContain(t.emu.apiKey);
    expect(l.stdout + l.stderr + list.stdout + list.stderr).not.toContain(t.emu.apiKey);
  }, 60_000);

  it('login stores the key there, the config records only where, commands read it, status names it, logout removes it; the key is never in output, files or argv', async () => {
    // A stand-in in front of the real secret-tool records every call's arguments.
    const real = spawnSync('sh', ['-c', 'command -v secret-tool'], { encoding: 'utf8' }).stdout.trim();
    const fake = fakeSecretTool(`exec '${real}' "$@"`);
    const dir = tempConfigDir();
    const env = { ...ss.env, SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir };
    const key = t.emu.apiKey;
    const outputs: SvcResult[] = [];
    const run = async (args: string[], stdin?: string) => {
      const r = await svc(args, { env, stdin });
      outputs.push(r);
      return r;
    };

    const login = await run(['auth', 'login', '--with-token'], key);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('api_key   in the Secret Service (from standard input)');
    expect(login.stderr).not.toContain('note:');
    const profile = config(dir).profiles.default;
    expect(profile.api_key).toBeUndefined();
    expect(profile.api_key_keychain).toMatch(/^[0-9a-f-]{36}$/);
    const lookup = spawnSync(real, ['lookup', 'service', 'svc', 'id', profile.api_key_keychain], {
      env: { ...ss.env, PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(lookup.stdout).toBe(key);

    expect((await run(['agents', 'list'])).code).toBe(0);
    const status = await run(['auth', 'status', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ api_key_store: 'the Secret Service', api_key_source: 'profile', stored_in_config: false, valid: true });

    // A second login replaces the entry in place.
    expect((await run(['auth', 'login', '--with-token'], key)).code).toBe(0);
    expect(config(dir).profiles.default.api_key_keychain).toBe(profile.api_key_keychain);

    expect(filesText(dir)).not.toContain(key);
    expect(calls(fake.log).join('\n')).not.toContain(key);
    for (const r of outputs) expect(r.stdout + r.stderr).not.toContain(key);

    const logout = await run(['auth', 'logout']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe('Logged out: the API key of profile default was removed from the Secret Service\n');
    expect(spawnSync(real, ['lookup', 'service', 'svc', 'id', profile.api_key_keychain], { env: { ...ss.env, PATH: process.env.PATH } }).status).toBe(1);
    // The base URL came from SVC_BASE_URL, which login never stores unasked (issue 44): nothing of the profile is left.
    expect(config(dir).profiles.default ?? {}).toEqual({});
    expect((await run(['agents', 'list'])).code).toBe(4);
  }, 60_000);

  it('--insecure-storage after a keychain login moves the key to the file and removes the keychain entry', async () => {
    const dir = tempConfigDir();
    const env = { ...ss.env, SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: process.env.PATH! };
    expect((await svc(['auth', 'login', '--with-token'], { env, stdin: t.emu.apiKey })).code).toBe(0);
    const id = config(dir).profiles.default.api_key_keychain;
    expect((await svc(['auth', 'login', '--with-token', '--insecure-storage'], { env, stdin: t.emu.apiKey })).code).toBe(0);
    expect(config(dir).profiles.default).toEqual({ api_key: t.emu.apiKey });
    expect(spawnSync('secret-tool', ['lookup', 'service', 'svc', 'id', id], { env }).status).toBe(1);
  }, 60_000);

  it('an entry removed from the keychain behind svc is exit 4 saying to log in again', async () => {
    const dir = tempConfigDir();
    const env = { ...ss.env, SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: process.env.PATH! };
    expect((await svc(['auth', 'login', '--with-token'], { env, stdin: t.emu.apiKey })).code).toBe(0);
    spawnSync('secret-tool', ['clear', 'service', 'svc', 'id', config(dir).profiles.default.api_key_keychain], { env });
    const r = await svc(['agents', 'list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: the API key of profile default is no longer in the Secret Service: run `svc auth login` again\n');
  }, 60_000);

  it('config set environment_key - follows the same rule: keychain, named by config list, removed by config unset', async () => {
    const dir = tempConfigDir();
    const env = { ...ss.env, SVC_CONFIG_DIR: dir, PATH: process.env.PATH! };
    const secret = 'envkey_0123456789abcdef';
    const set = await svc(['config', 'set', 'environment_key', '-'], { env, stdin: secret });
    expect(set.code).toBe(0);
    expect(set.stderr).toBe('set environment_key in profile default (in the Secret Service)\n');
    const id = config(dir).profiles.default.environment_key_keychain;
    expect(config(dir).profiles.default.environment_key).toBeUndefined();
    expect(spawnSync('secret-tool', ['lookup', 'service', 'svc', 'id', id], { env, encoding: 'utf8' }).stdout).toBe(secret);
    const list = await svc(['config', 'list', '-o', 'json'], { env });
    expect(JSON.parse(list.stdout).environment_key).toBe('(in the system keychain)');
    expect(filesText(dir)).not.toContain(secret);
    const unset = await svc(['config', 'unset', 'environment_key'], { env });
    expect(unset.stderr).toBe('unset environment_key in profile default (removed from the Secret Service)\n');
    expect(spawnSync('secret-tool', ['lookup', 'service', 'svc', 'id', id], { env }).status).toBe(1);
    expect(config(dir).profiles.default).toEqual({});
  }, 60_000);
});

describe('the macOS Keychain through `security` (a stand-in here: this machine has no macOS)', () => {
  it('the secret goes on stdin to `security -i`, never in an argument; reads and removes ask by service and entry ID', async () => {
    const { systemKeychain } = await import('../../src/config/keychain');
    const dir = mkdtempSync(join(tmpdir(), 'svc-kc-mac-'));
    const log = join(dir, 'calls.log');
    const stdinLog = join(dir, 'stdin.log');
    // find-generic-password answers the secret; an unknown ID is errSecItemNotFound (44).
    writeFileSync(
      join(dir, 'security'),
      `#!/bin/sh\necho "$*" >> '${log}'\ncat >> '${stdinLog}'\ncase "$*" in *nope*) exit 44;; find-generic-password*) echo sk_mac_secret;; esac\n`,
    );
    chmodSync(join(dir, 'security'), 0o755);
    const kc = systemKeychain({ PATH: `${dir}:/usr/bin:/bin` }, 'darwin');
    if (typeof kc === 'string') throw new Error(kc);
    expect(kc.name).toBe('the macOS Keychain');
    kc.store('id1', 'svc API key (profile default)', 'sk_mac_secret');
    expect(kc.read('id1')).toBe('sk_mac_secret');
    expect(kc.read('nope')).toBeUndefined();
    expect(kc.remove('id1')).toBe(true);
    const argv = readFileSync(log, 'utf8');
    expect(argv).not.toContain('sk_mac_secret');
    expect(argv.split('\n')[0]).toBe('-i');
    expect(readFileSync(stdinLog, 'utf8')).toContain('add-generic-password -U -s "svc" -a "id1" -l "svc API key (profile default)" -w "sk_mac_secret"');
  });

  it('a platform without a keychain in svc says why, and the key goes to the file', async () => {
    const { systemKeychain } = await import('../../src/config/keychain');
    expect(systemKeychain({ PATH: '/usr/bin' }, 'freebsd')).toBe('svc does not use the keychain on freebsd yet');
  });
});

describe('the Windows Credential Manager through Windows PowerShell (a stand-in here: this machine has no Windows)', () => {
  /** A stand-in powershell.exe: logs each call's arguments, keeps what `.Add(` is given on stdin per entry ID, and answers Retrieve and Remove from it (44 for no entry). */
  function fakePowerShell(): { dir: string; log: string } {
    const dir = mkdtempSync(join(tmpdir(), 'svc-kc-win-'));
    const log = join(dir, 'calls.log');
    writeFileSync(
      join(dir, 'powershell.exe'),
      `#!/bin/sh
for a in "$@"; do printf '%s ' "$a" >> '${log}'; done; echo >> '${log}'
cmd="$*"
id=$(printf '%s' "$cmd" | sed -n "s/.*'svc', '\\([^']*\\)'.*/\\1/p")
entry='${dir}'/"entry-$id"
case "$cmd" in
  *'.Add('*) cat > "$entry";;
  *RetrievePassword*) [ -f "$entry" ] || exit 44; tr -d '\\n' < "$entry";;
  *'.Remove('*) [ -f "$entry" ] || exit 44; rm "$entry";;
esac
`,
    );
    chmodSync(join(dir, 'powershell.exe'), 0o755);
    return { dir, log };
  }

  it('stores, reads and removes by service and entry ID; the secret goes on stdin and comes back on stdout, never in an argument', async () => {
    const { systemKeychain } = await import('../../src/config/keychain');
    const { dir, log } = fakePowerShell();
    const kc = systemKeychain({ PATH: `${dir}:/usr/bin:/bin` }, 'win32');
    if (typeof kc === 'string') throw new Error(kc);
    expect(kc.name).toBe('the Windows Credential Manager');
    const secret = 'sk_win_secret_é_42';
    kc.store('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0', 'svc API key (profile default)', secret);
    expect(kc.read('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0')).toBe(secret);
    expect(kc.read('11111111-2222-3333-4444-555555555555')).toBeUndefined();
    expect(kc.remove('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0')).toBe(true);
    expect(kc.remove('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0')).toBe(false);
    const argv = readFileSync(log, 'utf8');
    expect(argv).not.toContain(secret);
    expect(argv).not.toContain(Buffer.from(secret).toString('base64'));
    for (const line of argv.trim().split('\n')) expect(line.startsWith('-NoLogo -NoProfile -NonInteractive -Command ')).toBe(true);
  });

  it('an entry ID of another form (a hand-edited config) is refused before PowerShell runs: no script is built from it', async () => {
    const { systemKeychain, KeychainError } = await import('../../src/config/keychain');
    const { dir, log } = fakePowerShell();
    const kc = systemKeychain({ PATH: `${dir}:/usr/bin:/bin` }, 'win32');
    if (typeof kc === 'string') throw new Error(kc);
    expect(() => kc.read("x'); Remove-Item C:\\ -Recurse; ('")).toThrow(KeychainError);
    expect(existsSync(log)).toBe(false);
  });

  it('no powershell.exe is no keychain: the reason is said, and the key goes to the file', async () => {
    const { systemKeychain } = await import('../../src/config/keychain');
    expect(systemKeychain({ PATH: '/nonexistent' }, 'win32')).toBe('no Windows PowerShell (powershell.exe) found');
  });
});

describe('a hostile keychain tool (issue 45 items 18, 19)', () => {
  it('item 18: a lookup printing 4 MiB is exit 4 naming the keychain, not exit 1 ENOBUFS', async () => {
    const fake = fakeSecretTool('/usr/bin/head -c 4194304 /dev/zero | /usr/bin/tr "\\0" k');
    const keychain = systemKeychain({ PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }, 'linux');
    if (typeof keychain === 'string') throw new Error(keychain);
    let err: unknown;
    try {
      keychain.read('id');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('the Secret Service answered with more than 1 MiB, which is no key');
    expect(exitCodeFor(err)).toBe(4);
  });

  it('item 19: a tool that refuses and echoes its input on stderr never puts the key in the notice', async () => {
    const fake = fakeSecretTool('echo "secret-tool: refused: $(/bin/cat)" >&2; exit 1');
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH: fake.dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' };
    const r = await svc(['auth', 'login', '--with-token'], { env, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the Secret Service refused the key: secret-tool: refused: ***');
    expect(r.stderr).not.toContain(t.emu.apiKey);
  });
});
