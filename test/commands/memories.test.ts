// Rules proved here: R-MEM-8, R-MEM-9, R-MEM-13, R-MEM-14, R-MEM-17, R-MEM-19, R-MEM-20, R-MEM-21, R-MEM-22, R-MEM-23
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, ftruncateSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MiB } from '../../src/wire/limits';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = (extra: Record<string, string> = {}) => emuEnv(t.emu, extra);
const requests = (): Promise<number> => requestCount(t.emu);
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

let n = 0;
async function newStore(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: `mems-${++n}-${Date.now()}` } })).body.id;
}

async function write(store: string, path: string, text: string, extra: string[] = []): Promise<Record<string, any>> {
  const r = await svc(['memories', 'write', store, path, '--text', text, ...extra], { env: env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

/** A memory written twice: versions [v2 (current), v1]. */
async function twoVersions(): Promise<{ store: string; id: string; v1: string; v2: string }> {
  const store = await newStore();
  const m = await write(store, '/notes.md', 'one');
  await write(store, '/notes.md', 'two');
  const versions = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${m.id}/versions`)).body.items;
  return { store, id: m.id, v2: versions[0].id, v1: versions[1].id };
}

const versionOnServer = async (store: string, id: string, v: string) =>
  (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${id}/versions/${v}`)).body;

describe('svc memories write', () => {
  it('creates the memory at PATH, then changes it in place: the server holds the new content and two versions', async () => {
    const store = await newStore();
    const created = await write(store, '/plan.md', 'first');
    expect(created).toMatchObject({ path: '/plan.md', content: 'first' });
    const changed = await write(store, '/plan.md', 'second');
    expect(changed.id).toBe(created.id);
    const held = await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${created.id}`);
    expect(held.body.content).toBe('second');
    const versions = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${created.id}/versions`)).body.items;
    expect(versions.map((v: { operation: string }) => v.operation)).toEqual(['modified', 'created']);
  });

  it('reads the content from standard input with - or --file -', async () => {
    const store = await newStore();
    const a = await svc(['memories', 'write', store, '/a.txt', '-'], { env: env(), stdin: 'from stdin\n' });
    expect(JSON.parse(a.stdout).content).toBe('from stdin\n');
    const b = await svc(['memories', 'write', store, '/b.txt', '--file', '-'], { env: env(), stdin: 'also stdin' });
    const held = await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${JSON.parse(b.stdout).id}`);
    expect(held.body.content).toBe('also stdin');
  });

  it('a binary file round-trips byte for byte (sent as content_base64, read back with cat -O)', async () => {
    const store = await newStore();
    const dir = tempConfigDir();
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80]), randomBytes(64 * 1024)]);
    writeFileSync(join(dir, 'blob.bin'), bytes);
    const w = await svc(['memories', 'write', store, '/blob.bin', '--file', 'blob.bin'], { env: env(), cwd: dir });
    expect(w.code).toBe(0);
    const m = JSON.parse(w.stdout);
    expect(m.content).toBeUndefined();
    expect(m.content_sha256).toBe(sha256(bytes));
    const held = await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${m.id}`);
    expect(sha256(Buffer.from(held.body.content_base64, 'base64'))).toBe(sha256(bytes));
    const c = await svc(['memories', 'cat', store, m.id, '-O', 'back.bin'], { env: env(), cwd: dir });
    expect(c).toMatchObject({ code: 0, stdout: '', stderr: `wrote ${bytes.length} bytes to back.bin\n` });
    expect(sha256(readFileSync(join(dir, 'back.bin')))).toBe(sha256(bytes));
  });

  it('--base-version of the current version applies the change', async () => {
    const { store, v2 } = await twoVersions();
    const w = await write(store, '/notes.md', 'three', ['--base-version', v2]);
    expect(w.current_version_id).not.toBe(v2);
    expect(w.content).toBe('three');
  });

  it('R-MEM-9 R-MEM-17 a stale --base-version is recorded out of order: exit 7, nothing on stdout, current content unchanged', async () => {
    const { store, id, v1, v2 } = await twoVersions();
    const r = await svc(['memories', 'write', store, '/notes.md', '--text', 'late', '--base-version', v1], { env: env() });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: base version ${v1} is not the current version of /notes.md: the write was recorded as an out-of-order version but the current version is still ${v2} (see \`svc memories versions ${store} ${id}\`)\n`,
    );
    const held = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${id}`)).body;
    expect(held).toMatchObject({ content: 'two', current_version_id: v2 });
    const [late] = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${id}/versions`)).body.items;
    expect(Buffer.from(late.content_base64, 'base64').toString()).toBe('late');
    expect(late.sequence).toBeUndefined();
  });

  it('--base-version with no memory at PATH exits 6 before writing', async () => {
    const store = await newStore();
    const r = await svc(['memories', 'write', store, '/nothing.md', '--text', 'x', '--base-version', 'memver_x'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('--base-version needs an existing memory');
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories`)).body.items).toEqual([]);
  });

  it('refuses a file over 28 MiB with exit 2 before any request', async () => {
    const store = await newStore();
    const dir = tempConfigDir();
    const fd = openSync(join(dir, 'big.bin'), 'w');
    ftruncateSync(fd, 28 * MiB + 1);
    closeSync(fd);
    const before = await requests();
    const r = await svc(['memories', 'write', store, '/big.bin', '--file', 'big.bin'], { env: env(), cwd: dir });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('error: big.bin is 28.0 MiB; a memory write request may be at most 28 MiB (binary content is sent base64-encoded)\n');
    expect(await requests()).toBe(before);
  });

  it('counts the base64 expansion: 21.5 MiB of binary is a 28.7 MiB request, refused with exit 2 before any request', async () => {
    const store = await newStore();
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'bin'), Buffer.alloc(21.5 * MiB, 0xff));
    const before = await requests();
    const r = await svc(['memories', 'write', store, '/bin', '--file', 'bin'], { env: env(), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the request body is 28\.7 MiB; a memory write request may be at most 28 MiB/);
    expect(await requests()).toBe(before);
  });

  it('2 for no content, two contents at once, or a stray argument, before any request', async () => {
    const store = await newStore();
    const before = await requests();
    const none = await svc(['memories', 'write', store, '/x'], { env: env() });
    expect(none).toMatchObject({ code: 2, stdout: '', stderr: 'error: give the content: --file FILE, --text TEXT, or - for standard input\n' });
    const both = await svc(['memories', 'write', store, '/x', '--text', 'a', '-'], { env: env(), stdin: 'b' });
    expect(both).toMatchObject({ code: 2, stderr: 'error: give only one of --file, --text and - (standard input)\n' });
    const stray = await svc(['memories', 'write', store, '/x', 'oops'], { env: env() });
    expect(stray.code).toBe(2);
    const missing = await svc(['memories', 'write', store, '/x', '--file', '/nonexistent/f'], { env: env() });
    expect(missing).toMatchObject({ code: 2, stderr: 'error: cannot read /nonexistent/f: ENOENT\n' });
    expect(await requests()).toBe(before);
  });
});

describe('svc memories list, get, cat, rename, delete', () => {
  it('R-MEM-8 lists newest first: a table on a TTY, JSON when piped, as the server orders them', async () => {
    const store = await newStore();
    const a = await write(store, '/a.md', 'a');
    const b = await write(store, '/b.md', 'b');
    const json = JSON.parse((await svc(['memories', 'list', store], { env: env() })).stdout);
    expect(json.map((m: { id: string }) => m.id)).toEqual([b.id, a.id]);
    const table = await svc(['memories', 'list', store], { env: env({ NO_COLOR: '1' }), stdoutTTY: true, columns: 200 });
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+PATH\s+SIZE\s+VERSION\s+UPDATED$/);
    expect(lines[1]).toMatch(new RegExp(`^${b.id}\\s+/b\\.md\\s+1\\s`));
  });

  it('get prints the whole object when piped and leaves the body out of a table; cat prints the body raw', async () => {
    const store = await newStore();
    const m = await write(store, '/n.md', 'line one\nline two\n');
    const json = JSON.parse((await svc(['memories', 'get', store, m.id], { env: env() })).stdout);
    expect(json).toMatchObject({ id: m.id, content: 'line one\nline two\n', content_base64: expect.any(String) });
    const table = await svc(['memories', 'get', store, m.id], { env: env({ NO_COLOR: '1' }), stdoutTTY: true, columns: 200 });
    expect(table.stdout).toMatch(/^path\s+\/n\.md$/m);
    expect(table.stdout).not.toContain('content_base64');
    const cat = await svc(['memories', 'cat', store, m.id], { env: env() });
    expect(cat).toMatchObject({ code: 0, stdout: 'line one\nline two\n', stderr: '' });
  });

  it('cat --version prints a past body; versions lists newest first and shows one version', async () => {
    const { store, id, v1, v2 } = await twoVersions();
    expect((await svc(['memories', 'cat', store, id, '--version', v1], { env: env() })).stdout).toBe('one');
    const list = JSON.parse((await svc(['memories', 'versions', store, id], { env: env() })).stdout);
    expect(list.map((v: { id: string }) => v.id)).toEqual([v2, v1]);
    const table = await svc(['memories', 'versions', store, id], { env: env({ NO_COLOR: '1' }), stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+OPERATION\s+SEQUENCE\s+SOURCE\s+SIZE\s+CREATED\s+REDACTED\s+PATH$/);
    const one = JSON.parse((await svc(['memories', 'versions', store, id, v1], { env: env() })).stdout);
    expect(one).toMatchObject({ id: v1, operation: 'created', source: 'api', sequence: 1 });
  });

  it('rename moves the memory to a new path keeping its content', async () => {
    const store = await newStore();
    const m = await write(store, '/old.md', 'kept');
    const r = await svc(['memories', 'rename', store, m.id, '/new.md'], { env: env() });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: m.id, path: '/new.md', content: 'kept' });
    const [v] = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${m.id}/versions`)).body.items;
    expect(v).toMatchObject({ operation: 'renamed', path: '/new.md' });
  });

  it('R-MEM-14 delete removes the memory, recorded as a deleted version without a body', async () => {
    const store = await newStore();
    const m = await write(store, '/gone.md', 'bye');
    const d = await svc(['memories', 'delete', store, m.id], { env: env() });
    expect(JSON.parse(d.stdout)).toEqual({ id: m.id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${m.id}`)).status).toBe(404);
    const list = JSON.parse((await svc(['memories', 'versions', store, m.id], { env: env() })).stdout);
    expect(list[0].operation).toBe('deleted');
    expect(list[0].content_base64).toBeUndefined();
    const cat = await svc(['memories', 'cat', store, m.id, '--version', list[0].id], { env: env() });
    expect(cat).toMatchObject({ code: 7, stdout: '' });
    expect(cat.stderr).toBe(`error: version ${list[0].id} has no content: it is a deletion\n`);
  });

  it('6 for a memory that does not exist', async () => {
    const store = await newStore();
    const r = await svc(['memories', 'get', store, 'mem_missing'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/type=resource_not_found_error status=404/);
  });
});

describe('svc memories redact', () => {
  it('R-MEM-19 asks on a terminal and, answered yes, redacts: redacted_at set, metadata kept', async () => {
    const { store, id, v1 } = await twoVersions();
    const r = await svc(['memories', 'redact', store, id, v1], { env: env(), stdinTTY: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Permanently delete the body of version ${v1} of memory ${id} in store ${store}? This cannot be undone. [y/N]`);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: v1, operation: 'created', redacted_at: expect.any(String) });
    const held = await versionOnServer(store, id, v1);
    expect(held).toMatchObject({ redacted_at: expect.any(String), path: '/notes.md', content_sha256: expect.any(String) });
  });

  it('R-MEM-13 answered no on a terminal, sends nothing and exits 2', async () => {
    const { store, id, v1 } = await twoVersions();
    const before = await requests();
    const r = await svc(['memories', 'redact', store, id, v1], { env: env(), stdinTTY: true, stdin: 'n\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n').pop()).toBe('error: redaction not confirmed; nothing was sent');
    expect(await requests()).toBe(before);
    const held = await versionOnServer(store, id, v1);
    expect(held.redacted_at).toBeUndefined();
    expect(held.content_base64).toBeDefined();
  });

  it('refuses without --yes when it cannot prompt (piped stdin, --no-input, CI): exit 2 and no request', async () => {
    const { store, id, v1 } = await twoVersions();
    const before = await requests();
    const expected = 'error: redact permanently deletes a version body: pass --yes to confirm (cannot prompt: no terminal, --no-input or CI)\n';
    for (const r of [
      await svc(['memories', 'redact', store, id, v1], { env: env(), stdin: 'y\n' }),
      await svc(['memories', 'redact', store, id, v1, '--no-input'], { env: env(), stdinTTY: true, stdin: 'y\n' }),
      await svc(['memories', 'redact', store, id, v1], { env: env({ CI: 'true' }), stdinTTY: true, stdin: 'y\n' }),
    ])
      expect(r).toMatchObject({ code: 2, stdout: '', stderr: expected });
    expect(await requests()).toBe(before);
    expect((await versionOnServer(store, id, v1)).redacted_at).toBeUndefined();
  });

  it('R-MEM-20 R-MEM-21 R-MEM-22 --yes redacts without asking; the body is gone, the current file untouched, a repeat is a no-op', async () => {
    const { store, id, v1, v2 } = await twoVersions();
    const first = await svc(['memories', 'redact', store, id, v1, '--yes'], { env: env() });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const redactedAt = JSON.parse(first.stdout).redacted_at;
    expect(redactedAt).toEqual(expect.any(String));
    expect((await versionOnServer(store, id, v1)).content_base64).toBeUndefined();
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${id}`)).body).toMatchObject({ content: 'two', current_version_id: v2 });
    const again = await svc(['memories', 'redact', store, id, v1, '-y'], { env: env() });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).redacted_at).toBe(redactedAt);
    const cat = await svc(['memories', 'cat', store, id, '--version', v1], { env: env() });
    expect(cat).toMatchObject({ code: 7, stdout: '', stderr: `error: version ${v1} has no content: its body was redacted at ${redactedAt}\n` });
  });

  it('R-MEM-23 redacting the current version exits 7 and leaves it readable', async () => {
    const { store, id, v2 } = await twoVersions();
    const r = await svc(['memories', 'redact', store, id, v2, '--yes'], { env: env() });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/type=failed_precondition_error status=400/);
    expect((await versionOnServer(store, id, v2)).redacted_at).toBeUndefined();
  });
});

describe('memories cat by path', () => {
  it('STORE PATH prints the memory at that path, as write takes one', async () => {
    const store = await newStore();
    await write(store, '/by/path.md', 'found by path');
    const r = await svc(['memories', 'cat', store, '/by/path.md'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('found by path');
  });

  it('STORE PATH --version V prints that version of the memory at the path', async () => {
    const { store, v1 } = await twoVersions();
    const r = await svc(['memories', 'cat', store, '/notes.md', '--version', v1], { env: env() });
    expect([r.code, r.stdout]).toEqual([0, 'one']);
  });

  it('a path with no memory is still exit 6', async () => {
    const store = await newStore();
    const r = await svc(['memories', 'cat', store, '/nothing/here.md'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
  });
});
