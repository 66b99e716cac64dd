// Rules proved here: R-FILE-1, R-FILE-2, R-FILE-3, R-FILE-4, R-FILE-5, R-FILE-6, R-FILE-7, R-FILE-10, R-LIMIT-3, R-IDEM-12
import { createHash, randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const requests = (): Promise<number> => requestCount(t.emu);
/** The status lines `--debug` logs, e.g. `201 POST /v1/files`. */
const statuses = (stderr: string) => [...stderr.matchAll(/< (\d{3}) (\w+) (\S+)/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);

function tempFile(name: string, content: Buffer | string): { dir: string; path: string } {
  const dir = tempConfigDir();
  const path = join(dir, name);
  writeFileSync(path, content);
  return { dir, path };
}

/** The bytes the service holds for a file, read without the CLI. */
async function serverBytes(id: string): Promise<Buffer> {
  const res = await fetch(`${t.emu.url}/v1/files/${id}/content`, {
    headers: { authorization: `Bearer ${t.emu.apiKey}`, 'svc-api-version': '2026-09-01-beta' },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('svc files upload', () => {
  it('R-FILE-1 R-FILE-3 R-FILE-7 R-FILE-10 uploads multipart with the version header: 201, extract_status, the exact bytes on the server', async () => {
    const content = randomBytes(300_000);
    const { path } = tempFile('data.bin', content);
    const r = await svc(['files', 'upload', path, '--debug'], { env: env() });
    expect(r.code).toBe(0);
    expect(statuses(r.stderr)).toEqual(['201 POST /v1/files']);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ filename: 'data.bin', size_bytes: content.length, extract_status: 'completed' });
    expect(created).not.toHaveProperty('status');
    expect(t.emu.services.files!.get(created.id)).toMatchObject({ compat: false, purpose: 'user_data' });
    expect(sha(await serverBytes(created.id))).toBe(sha(content));
  });

  it('sends --purpose as a form field', async () => {
    const { path } = tempFile('rows.jsonl', '{"a":1}\n');
    const r = await svc(['files', 'upload', path, '--purpose', 'batch', '-q'], { env: env() });
    expect(r.code).toBe(0);
    expect(t.emu.services.files!.get(r.stdout.trim())?.purpose).toBe('batch');
  });

  it('R-IDEM-12 sends an Idempotency-Key, and a retried upload after a 500 creates exactly one file', async () => {
    const { path } = tempFile('retried.txt', 'retry me\n');
    await call(t.emu, 'POST', '/_emulator/faults', { body: { fail_write_every: 2 } });
    try {
      const filler = await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'first-write' } });
      expect(filler.status).toBe(201);
      const before = (await call(t.emu, 'GET', '/v1/files?page_size=1000')).body.items.length;
      const r = await svc(['files', 'upload', path, '--debug'], { env: env(), sleep: async () => {} });
      expect(r.code).toBe(0);
      expect(statuses(r.stderr)).toEqual(['500 POST /v1/files', '201 POST /v1/files']);
      const keys = [...r.stderr.matchAll(/attempt=\d idempotency-key=(\S+)/g)].map((m) => m[1]);
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      const stats = (await call(t.emu, 'GET', '/_emulator/stats')).body;
      expect(stats.write_failures).toBe(1);
      expect(stats.idempotent_replays).toBeGreaterThanOrEqual(1);
      const after = (await call(t.emu, 'GET', '/v1/files?page_size=1000')).body.items;
      expect(after).toHaveLength(before + 1);
      expect(after.map((f: { id: string }) => f.id)).toContain(JSON.parse(r.stdout).id);
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
  });

  it('the same --idempotency-key sends identical bytes, so running the command twice replays one file', async () => {
    const { path } = tempFile('twice.txt', 'once only\n');
    const a = await svc(['files', 'upload', path, '--idempotency-key', 'files-twice-1', '-q'], { env: env() });
    const b = await svc(['files', 'upload', path, '--idempotency-key', 'files-twice-1', '-q'], { env: env() });
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it('R-FILE-2 R-FILE-4 R-FILE-5 R-FILE-6 --no-version-header speaks the compatibility format on upload, get, list and delete', async () => {
    const { path } = tempFile('compat.txt', 'old clients\n');
    const up = await svc(['files', 'upload', path, '--no-version-header', '--debug'], { env: env() });
    expect(up.code).toBe(0);
    expect(statuses(up.stderr)).toEqual(['200 POST /v1/files']);
    const created = JSON.parse(up.stdout);
    expect(created).toMatchObject({ status: 'processed', status_details: null });
    expect(created).not.toHaveProperty('extract_status');
    expect(t.emu.services.files!.get(created.id)?.compat).toBe(true);

    const got = await svc(['files', 'get', created.id, '--no-version-header'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(got.stdout).toMatch(/^status\s+processed$/m);
    expect(got.stdout).toMatch(/^status_details\s*$/m);
    const table = await svc(['files', 'list', '--all', '--no-version-header'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+FILENAME\s+SIZE\s+TYPE\s+STATUS\s+CREATED$/);
    expect(table.stdout).toMatch(new RegExp(`${created.id}\\s+compat.txt\\s+12 B\\s+text/plain\\s+processed`));

    const del = await svc(['files', 'delete', created.id, '--no-version-header', '--debug'], { env: env() });
    expect(del.code).toBe(0);
    expect(statuses(del.stderr)).toEqual([`200 DELETE /v1/files/${created.id}`]);
    expect(JSON.parse(del.stdout)).toEqual({ id: created.id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/files/${created.id}`)).status).toBe(404);
  });

  it('R-FILE-3 deletes with the version header: 204, printed as {id, deleted}', async () => {
    const { path } = tempFile('gone.txt', 'x');
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const del = await svc(['files', 'delete', id, '--debug'], { env: env() });
    expect(statuses(del.stderr)).toEqual([`204 DELETE /v1/files/${id}`]);
    expect(JSON.parse(del.stdout)).toEqual({ id, deleted: true });
  });

  it('a missing file is exit 2 with one error line, nothing on stdout and no request', async () => {
    const before = await requests();
    const r = await svc(['files', 'upload', 'no-such-file.bin'], { env: env(), cwd: tempConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: cannot read no-such-file.bin: no such file\n');
    expect(await requests()).toBe(before);
  });

  it('R-LIMIT-3 a file over 100 MiB is refused before any request', async () => {
    const { dir, path } = tempFile('huge.bin', '');
    truncateSync(path, 100 * 1024 * 1024 + 1);
    const before = await requests();
    const r = await svc(['files', 'upload', 'huge.bin'], { env: env(), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: huge.bin is 100.0 MiB; the service accepts a file of at most 100.0 MiB\n');
    expect(await requests()).toBe(before);
  });
});

describe('svc files download', () => {
  it('writes -O FILE with the exact bytes and replaces an existing file, leaving no temp file behind', async () => {
    const content = randomBytes(200_000);
    const { dir, path } = tempFile('src.bin', content);
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    writeFileSync(join(dir, 'out.bin'), 'old content');
    const r = await svc(['files', 'download', id, '-O', 'out.bin'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('saved 195.3 KiB to out.bin\n');
    expect(sha(readFileSync(join(dir, 'out.bin')))).toBe(sha(content));
    expect(readdirSync(dir).sort()).toEqual(['out.bin', 'src.bin']);
  });

  it('with -O DIR keeps the service file name and does not overwrite it', async () => {
    const { dir, path } = tempFile('named.txt', 'hello\n');
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const out = join(dir, 'downloads');
    mkdirSync(out);
    const r = await svc(['files', 'download', id, '-O', 'downloads'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'named.txt'), 'utf8')).toBe('hello\n');
    const again = await svc(['files', 'download', id, '-O', 'downloads/'], { env: env(), cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: not overwriting .*named\.txt: pass -O/);
    expect(readdirSync(out)).toEqual(['named.txt']);
  });

  it('writes to stdout when piped', async () => {
    const { path } = tempFile('piped.txt', 'line one\nline two\n');
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const r = await svc(['files', 'download', id], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('line one\nline two\n');
    expect(r.stderr).toBe('');
  });

  it('on a terminal without -O saves into the current directory rather than printing bytes', async () => {
    const { path } = tempFile('tty.txt', 'not for the terminal\n');
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const cwd = tempConfigDir();
    const r = await svc(['files', 'download', id], { env: env(), cwd, stdoutTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(join(cwd, 'tty.txt'), 'utf8')).toBe('not for the terminal\n');
  });

  it('-O into a missing directory is exit 2 before any request', async () => {
    const before = await requests();
    const r = await svc(['files', 'download', 'file_x', '-O', 'nowhere/out.bin'], { env: env(), cwd: tempConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot write into nowhere: no such directory\n');
    expect(await requests()).toBe(before);
  });

  it('-O onto a symlink writes through it to its target, atomically, and leaves the link in place', async () => {
    const content = randomBytes(50_000);
    const { dir, path } = tempFile('src.bin', content);
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'target.bin'), 'old');
    symlinkSync('real/target.bin', join(dir, 'link.bin'));
    // A dangling link: the file it names is created.
    symlinkSync('real/made.bin', join(dir, 'dangling.bin'));
    const r = await svc(['files', 'download', id, '-O', 'link.bin'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('saved 48.8 KiB to link.bin\n');
    expect(lstatSync(join(dir, 'link.bin')).isSymbolicLink()).toBe(true);
    expect(sha(readFileSync(join(dir, 'real', 'target.bin')))).toBe(sha(content));
    const d = await svc(['files', 'download', id, '-O', 'dangling.bin'], { env: env(), cwd: dir });
    expect(d.code).toBe(0);
    expect(lstatSync(join(dir, 'dangling.bin')).isSymbolicLink()).toBe(true);
    expect(sha(readFileSync(join(dir, 'real', 'made.bin')))).toBe(sha(content));
    expect(readdirSync(join(dir, 'real')).sort()).toEqual(['made.bin', 'target.bin']);
  });

  it('-O onto a FIFO writes into it and leaves it a FIFO', async () => {
    const content = randomBytes(100_000);
    const { dir, path } = tempFile('src.bin', content);
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    reader.stdout.on('data', (c: Buffer) => chunks.push(c));
    const read = new Promise((done) => reader.on('close', done));
    try {
      const r = await svc(['files', 'download', id, '-O', fifo], { env: env(), cwd: dir });
      expect(r.code).toBe(0);
      await read;
      expect(sha(Buffer.concat(chunks))).toBe(sha(content));
      expect(statSync(fifo).isFIFO()).toBe(true);
    } finally {
      reader.kill();
    }
  });

  // A device node of its own (as /dev/full and /dev/null are), so a failure never touches the machine's /dev.
  const nodes = tempConfigDir();
  const canMknod =
    spawnSync('mknod', [join(nodes, 'full'), 'c', '1', '7']).status === 0 && spawnSync('mknod', [join(nodes, 'null'), 'c', '1', '3']).status === 0;

  it.skipIf(!canMknod)('-O onto a device writes into it; a full device is one clear line, and the node stays', async () => {
    const { path } = tempFile('src.bin', randomBytes(10_000));
    const id = (await svc(['files', 'upload', path, '-q'], { env: env() })).stdout.trim();
    const ok = await svc(['files', 'download', id, '-O', join(nodes, 'null')], { env: env() });
    expect(ok.code).toBe(0);
    expect(statSync(join(nodes, 'null')).isCharacterDevice()).toBe(true);
    const full = await svc(['files', 'download', id, '-O', join(nodes, 'full')], { env: env() });
    expect(full.code).toBe(2);
    expect(full.stderr).toBe(`error: cannot write ${join(nodes, 'full')}: no space left on device (ENOSPC)\n`);
    expect(statSync(join(nodes, 'full')).isCharacterDevice()).toBe(true);
    expect(readdirSync(nodes).sort()).toEqual(['full', 'null']);
  });

  it('an unknown file is exit 6 and creates no output file', async () => {
    const dir = tempConfigDir();
    const r = await svc(['files', 'download', 'file_missing', '-O', 'x.bin'], { env: env(), cwd: dir });
    expect(r.code).toBe(6);
    expect(existsSync(join(dir, 'x.bin'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
