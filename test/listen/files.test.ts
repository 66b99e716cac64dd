import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/errors';
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
    await state.flush();
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
      new UsageError('cannot write --state no/such/folder/state.json: ENOENT'),
    );
  });
});
