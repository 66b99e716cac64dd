// Issue 13 "Input that must be bounded and interruptible", issue 17 (inline YAML flow bodies).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
// The nesting limit (src/input/data.ts), literal so this file also runs against the code before it.
const MAX_DEPTH = 128;
import { MiB } from '../../src/wire/limits';
import { blockedIn, spawnSvc, useBundledSvc } from '../helpers/bundled';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator();
const svcBin = useBundledSvc();
const folder = (): string => mkdtempSync(join(tmpdir(), 'svc-input-'));

function fifo(): string {
  const path = join(folder(), 'fifo');
  execFileSync('mkfifo', [path]);
  return path;
}

/** Writes `text` into the FIFO from another process, as a shell would (`printf … > fifo`). */
function writeFromShell(path: string, text: string): Promise<void> {
  const child = spawn('sh', ['-c', 'printf %s "$1" > "$2"', 'sh', text, path], { stdio: 'ignore' });
  return new Promise((resolve) => child.on('close', () => resolve()));
}

function bigFile(bytes: number): string {
  const path = join(folder(), 'big.json');
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('--data is bounded', () => {
  it('a --data file over the 4 MiB JSON body limit is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'create', '--data', `@${bigFile(4 * MiB + 1)}`], { env: emuEnv(t.emu) });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^error: .*big\.json is larger than 4 MiB, the most the service accepts here\n$/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('standard input over the limit is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'create', '--data', '@-'], { env: emuEnv(t.emu), stdin: Buffer.alloc(4 * MiB + 1, 0x20) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: standard input is larger than 4 MiB, the most the service accepts here\n');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('--data @/dev/zero is refused at once with exit 2 (a device has no end to read to)', async () => {
    const r = await spawnSvc(svcBin.bin, ['agents', 'create', '--data', '@/dev/zero'], {
      SVC_CONFIG_DIR: tempConfigDir(),
      ...(emuEnv(t.emu) as Record<string, string>),
    }).exit;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot read /dev/zero: a character device, not a regular file or a pipe\n');
  }, 30_000);

  it(`a --data body nested 10 000 deep is a clear exit 2, not a stack overflow (limit ${MAX_DEPTH})`, async () => {
    for (const data of [nested(10_000), '['.repeat(10_000) + ']'.repeat(10_000), '{a: '.repeat(10_000) + '1' + '}'.repeat(10_000)]) {
      const r = await svc(['agents', 'create', '--data', data], { env: emuEnv(t.emu) });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: --data is nested more than ${MAX_DEPTH} levels deep\n`);
    }
  });

  it(`a body nested ${MAX_DEPTH} levels deep is still accepted`, async () => {
    const r = await svc(
      ['api', 'POST', '/v1/agents', '--data', JSON.stringify({ name: 'deep', model: 'claude', metadata: JSON.parse(nested(MAX_DEPTH - 1)) })],
      { env: emuEnv(t.emu) },
    );
    expect(r.stderr).not.toContain('nested');
  });
});

describe('--data from a pipe', () => {
  it('reads a FIFO once its writer comes', async () => {
    const path = fifo();
    const writing = writeFromShell(path, JSON.stringify({ name: 'from-fifo', model: 'claude-sonnet-4-6' }));
    const r = await svc(['agents', 'create', '--data', `@${path}`, '-o', 'json'], { env: emuEnv(t.emu) });
    await writing;
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).name).toBe('from-fifo');
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`--data @FIFO with no writer answers ${signal} with exit 130 and sends nothing`, async () => {
      const path = fifo();
      const before = await requestCount(t.emu);
      const p = spawnSvc(svcBin.bin, ['agents', 'create', '--data', `@${path}`], {
        SVC_CONFIG_DIR: tempConfigDir(),
        ...(emuEnv(t.emu) as Record<string, string>),
      });
      try {
        await waitUntil(() => blockedIn(p.child.pid!, 'wait_for_partner'), 'svc to wait for a writer on the FIFO', 20_000);
        p.child.kill(signal);
        const r = await Promise.race([p.exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 10_000))]);
        expect(r?.code).toBe(130);
        expect(r?.stderr).toBe('error: interrupted\n');
        expect(await requestCount(t.emu)).toBe(before);
      } finally {
        p.child.kill('SIGKILL');
      }
    }, 40_000);
  }

  it('a wait on standard input answers Ctrl-C (the io signal) with exit 130', async () => {
    const stdin = new PassThrough();
    const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
    const stderr = new Writable({
      write(c, _e, cb) {
        text += c;
        cb();
      },
    });
    let text = '';
    const ctl = new AbortController();
    const running = main(['agents', 'create', '--data', '@-'], {
      stdin,
      stdout: sink(),
      stderr,
      env: { SVC_CONFIG_DIR: tempConfigDir(), ...emuEnv(t.emu) },
      cwd: process.cwd(),
      signal: ctl.signal,
    });
    await waitUntil(() => stdin.listenerCount('readable') + stdin.listenerCount('data') > 0, 'svc to read standard input');
    ctl.abort();
    expect(await running).toBe(130);
    expect(text).toBe('error: interrupted\n');
  });
});

describe('--data is JSON or YAML', () => {
  it('inline YAML flow style `{name: x, model: y}` is accepted (issue 17)', async () => {
    const r = await svc(['agents', 'create', '--data', '{name: yaml-flow, model: claude-sonnet-4-6}', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).id;
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body).toMatchObject({ name: 'yaml-flow', model: 'claude-sonnet-4-6' });
  });

  it('a JSON error in a --data file gives its line and column, never a fragment of it (a credential value)', async () => {
    const dir = folder();
    const secret = 'sk_live_0123456789abcdef';
    writeFileSync(join(dir, 'cred.json'), `{\n  "type": "static_bearer",\n  "value": ${secret}\n}\n`);
    const r = await svc(['vaults', 'credentials', 'create', 'vlt_x', '--data', '@cred.json'], { env: emuEnv(t.emu), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cred.json is not valid JSON: expected a value at line 3, column 12\n');
    for (let i = 0; i + 4 <= secret.length; i++) expect(r.stderr).not.toContain(secret.slice(i, i + 4));
  });

  it('a YAML error names the line and column only', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'body'), 'name: x\nvalue: "sk_live_abcdefghij\n');
    const r = await svc(['agents', 'create', '--data', '@body'], { env: emuEnv(t.emu), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: body is not valid JSON or YAML: [a-z ]+ at line \d+, column \d+\n$/);
    expect(r.stderr).not.toContain('sk_live');
  });
});

describe('other file inputs are bounded', () => {
  it('run --message-file over the limit is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['run', '--agent', 'agt_x', '--message-file', bigFile(4 * MiB + 1)], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/big\.json is larger than 4 MiB/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('run --message-file reads a FIFO', async () => {
    const path = fifo();
    const writing = writeFromShell(path, 'hello');
    const r = await svc(['run', '--agent', 'agt_missing', '--message-file', path], { env: emuEnv(t.emu) });
    await writing;
    // The message was read: the command went on to the service, which does not know the agent.
    expect(r.code).toBe(6);
  });

  it('a vault credential --value-file over the limit is refused with exit 2', async () => {
    const r = await svc(['vaults', 'credentials', 'create', 'vlt_x', '--name', 'c', '--value-file', bigFile(4 * MiB + 1)], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*big\.json is larger than 4 MiB/);
  });

  it('a vault credential --value-file that is a device is refused with exit 2', async () => {
    const r = await spawnSvc(svcBin.bin, ['vaults', 'credentials', 'create', 'vlt_x', '--name', 'c', '--value-file', '/dev/zero'], {
      SVC_CONFIG_DIR: tempConfigDir(),
      ...(emuEnv(t.emu) as Record<string, string>),
    }).exit;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot read /dev/zero: a character device, not a regular file or a pipe\n');
  }, 30_000);

  it('an upload path that is a FIFO or a device is refused with exit 2', async () => {
    for (const file of [fifo(), '/dev/zero']) {
      const r = await svc(['files', 'upload', file], { env: emuEnv(t.emu) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('not a regular file');
    }
  });
});
