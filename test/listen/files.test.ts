import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/runtime/errors';
import { generatedSecretPath, loadSecret } from '../../src/listen/secret';
import { ListenState } from '../../src/listen/state';
import { redact } from '../../src/text/redact';
import { tempConfigDir } from '../helpers/cli';

const io = (dir: string) => ({ env: { SVC_CONFIG_DIR: dir }, cwd: dir });

describe('the signing secret', () => {
  it('is generated once, 0600 in the config folder; listeners starting together agree on it; it is masked in any text from then on', async () => {
    const dir = tempConfigDir();
    const [a, b] = await Promise.all([loadSecret(io(dir)), loadSecret(io(dir))]);
    expect(a.value).toBe(b.value);
    expect([a.generated, b.generated].filter(Boolean)).toHaveLength(1);
    expect(statSync(generatedSecretPath(io(dir).env)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['listen-secret']);
    expect((await loadSecret(io(dir))).value).toBe(a.value);
    expect(redact(`the secret is ${a.value}`)).toBe('the secret is ***');
  });

  it('refuses a generated secret that others can read, naming the file and the fix', async () => {
    const dir = tempConfigDir();
    await loadSecret(io(dir));
    chmodSync(join(dir, 'listen-secret'), 0o644);
    await expect(loadSecret(io(dir))).rejects.toThrow(
      new ConfigError(`signing secret ${join(dir, 'listen-secret')} is readable by others (mode 644); chmod 600 ${join(dir, 'listen-secret')}`),
    );
  });

  it('refuses a --secret-file that holds no secret or a short one', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'short'), 'abc\n', { mode: 0o600 });
    await expect(loadSecret(io(dir), 'short')).rejects.toThrow(UsageError);
    await expect(loadSecret(io(dir), 'missing')).rejects.toThrow('cannot read missing: ENOENT');
  });
});

describe("a --secret-file follows the generated secret's rules", () => {
  const secret = 'whsec_' + 'z'.repeat(30);

  it('refuses one that others can read, naming the file and the fix, as it refuses a generated one', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'secret'), secret + '\n', { mode: 0o644 });
    chmodSync(join(dir, 'secret'), 0o644);
    await expect(loadSecret(io(dir), 'secret')).rejects.toThrow(new UsageError('--secret-file secret is readable by others (mode 644); chmod 600 secret'));
    await expect(loadSecret(io(dir), '/etc/passwd')).rejects.toThrow(/^--secret-file \/etc\/passwd is readable by others/);
  });

  it('takes its one line without the newline that ends it (what --print-secret prints is the key, then one newline); refuses more lines or white space around it', async () => {
    const dir = tempConfigDir();
    const file = (name: string, text: string) => (writeFileSync(join(dir, name), text, { mode: 0o600 }), name);
    for (const text of [secret, secret + '\n', secret + '\r\n']) expect((await loadSecret(io(dir), file('ok', text))).value).toBe(secret);
    await expect(loadSecret(io(dir), file('lines', `root:x:0:0:root:/root:/bin/bash\n${secret}\n`))).rejects.toThrow(
      new UsageError('--secret-file lines holds more than one line; a secret file holds the secret alone, on one line'),
    );
    await expect(loadSecret(io(dir), file('blank', secret + '\n\n'))).rejects.toThrow(/holds more than one line/);
    await expect(loadSecret(io(dir), file('spaced', ` ${secret}\n`))).rejects.toThrow(/has white space around the secret/);
    // The generated one: the file holds the key and one newline, and the key is what --print-secret prints before it.
    const made = await loadSecret(io(dir));
    expect(readFileSync(made.path, 'utf8')).toBe(made.value + '\n');
  });

  it("one over svc's size limit says the limit is svc's own, not the service's", async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'big'), 'k'.repeat(5000), { mode: 0o600 });
    await expect(loadSecret(io(dir), 'big')).rejects.toThrow(new UsageError("big is larger than 4096 bytes, svc's own limit for a signing secret"));
  });
});

describe('the state file', () => {
  it('is rewritten whole after each change, 0600, through a temp file of its own that never stays behind', async () => {
    const dir = tempConfigDir();
    const state = await ListenState.open(io(dir), 'state.json', Date.parse('2026-11-26T00:00:00Z'), () => undefined);
    for (let i = 0; i < 200; i++) state.settle(`s${i % 7}`, { id: `e${i}`, processed_at: new Date(Date.UTC(2026, 10, 26, 0, 0, i)).toISOString() });
    await state.close();
    const data = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    expect(Object.keys(data.sessions)).toHaveLength(7);
    expect(data.sessions.s3.event_id).toBe('e199');
    expect(data.since).toBe('2026-11-26T00:00:00.000Z');
    expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
    const again = await ListenState.open(io(dir), 'state.json', Date.now(), () => undefined);
    expect(again.since).toBe(Date.parse('2026-11-26T00:00:00Z'));
    expect(again.anchorOf('s3')).toEqual({ kind: 'after', id: data.sessions.s3.event_id, at: Date.parse(data.sessions.s3.processed_at) });
  });

  it('that cannot be written is exit 2 at start, before anything is followed', async () => {
    const dir = tempConfigDir();
    await expect(ListenState.open(io(dir), 'no/such/folder/state.json', Date.now(), () => undefined)).rejects.toThrow(
      new UsageError(`cannot create the lock of --state no/such/folder/state.json ${join(dir, 'no/such/folder/state.json.lock')}: ENOENT`),
    );
  });

  const open = (dir: string, name = 'state.json') => ListenState.open(io(dir), name, Date.now(), () => undefined);
  const planted = JSON.stringify({ version: 1, since: '1970-01-01T00:00:00.000Z', sessions: {} });

  it('is held by one listener at a time: a second is exit 2 naming the holder; once the first closes, it is free', async () => {
    const dir = tempConfigDir();
    const first = await open(dir);
    await expect(open(dir)).rejects.toThrow(
      new UsageError(`--state state.json is in use by PID ${process.pid} (another svc listen); stop it, or give each listener its own --state`),
    );
    await first.close();
    expect(readdirSync(dir)).toEqual(['state.json']);
    await (await open(dir)).close();
  });

  it('a lock left by a listener that died (kill -9) is taken over', async () => {
    const dir = tempConfigDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'state.json.lock'), `${dead.stdout} k3j4h5`, { mode: 0o600 });
    const state = await open(dir);
    expect(readFileSync(join(dir, 'state.json.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    await state.close();
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('is refused, exit 2 naming it, and left as it is, when it is a symbolic link or writable by others, as a config folder is', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'target.json'), planted, { mode: 0o600 });
    symlinkSync(join(dir, 'target.json'), join(dir, 'link.json'));
    await expect(open(dir, 'link.json')).rejects.toThrow(
      new UsageError('--state link.json is a symbolic link; give the file itself (svc replaces the file at each write)'),
    );
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    writeFileSync(join(dir, 'open.json'), planted);
    chmodSync(join(dir, 'open.json'), 0o666);
    await expect(open(dir, 'open.json')).rejects.toThrow(
      new UsageError('--state open.json is writable by others (mode 666); make it private (chmod 600 open.json)'),
    );
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'open.json', 'target.json']);
  });

  it.skipIf(process.getuid?.() !== 0)('is refused when another user owns it: a planted "since" of 1970 would replay every event', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'planted.json'), planted, { mode: 0o600 });
    chownSync(join(dir, 'planted.json'), 65534, 65534);
    await expect(open(dir, 'planted.json')).rejects.toThrow(new UsageError('--state planted.json belongs to another user (uid 65534); use a file of your own'));
    expect(readFileSync(join(dir, 'planted.json'), 'utf8')).toBe(planted);
  });

  it("one over svc's size limit says the limit is svc's own, not the service's", async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'huge.json'), '', { mode: 0o600 });
    truncateSync(join(dir, 'huge.json'), 65 * 1024 * 1024);
    await expect(open(dir, 'huge.json')).rejects.toThrow(new UsageError("huge.json is larger than 64 MiB, svc's own limit for a listen state file"));
  });
});
