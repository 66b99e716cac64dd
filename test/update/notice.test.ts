import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_VERSION } from '../../src/version';
import { runUpdateCheck } from '../../src/update/check';
import { CHECK_EVERY_MS, newer, plan } from '../../src/update/notice';
import { svc, tempConfigDir } from '../helpers/cli';
import { useBundledSvc } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';

const DAY = CHECK_EVERY_MS;
const cacheFile = (cache: string) => join(cache, 'svc', 'update-check.json');
function seed(cache: string, state: object): void {
  mkdirSync(join(cache, 'svc'), { recursive: true, mode: 0o700 });
  writeFileSync(cacheFile(cache), JSON.stringify(state), { mode: 0o600 });
}

/** A registry stand-in: answers each request with the next of `bodies` (status, text), counting requests. */
function registry(answer: () => { status: number; body: string }) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(String(req.headers.accept));
    const { status, body } = answer();
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  return {
    seen,
    start: () =>
      new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/svc`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('when a notice is due', () => {
  it('a newer x.y.z is offered; an older, equal or pre-release one never is', () => {
    expect(newer('0.2.0', '0.1.0')).toBe(true);
    expect(newer('0.10.0', '0.9.9')).toBe(true);
    expect(newer('0.1.0', '0.1.0')).toBe(false);
    expect(newer('0.0.9', '0.1.0')).toBe(false);
    expect(newer('0.2.0-beta.1', '0.1.0')).toBe(false);
  });

  it('checks when the last check is a day old (or in the future), notices at most once a day', () => {
    const now = 10 * DAY;
    expect(plan(undefined, '0.1.0', now)).toEqual({ check: true, notice: undefined });
    expect(plan({ checkedAt: now - DAY / 2, latest: '0.2.0' }, '0.1.0', now)).toEqual({ check: false, notice: '0.2.0' });
    expect(plan({ checkedAt: now - DAY / 2, latest: '0.2.0', notifiedAt: now - 60_000 }, '0.1.0', now)).toEqual({ check: false, notice: undefined });
    expect(plan({ checkedAt: now + DAY, latest: '0.1.0' }, '0.1.0', now).check).toBe(true);
  });
});

describe('the notice after a command on a terminal', () => {
  const run = (cache: string, env: Record<string, string> = {}, o: { tty?: boolean; stdinTty?: boolean; args?: string[]; starts?: unknown[] } = {}) =>
    svc(o.args ?? ['config', 'profiles'], {
      env: { XDG_CACHE_HOME: cache, ...env },
      stderrTTY: o.tty ?? true,
      stdinTTY: o.stdinTty ?? true,
      startUpdateCheck: (e) => o.starts?.push(e),
    });

  it('prints one stderr line naming the new version and the upgrade command, then not again that day', async () => {
    const cache = tempConfigDir();
    seed(cache, { checkedAt: Date.now(), latest: '99.0.0' });
    const first = await run(cache);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(`svc 99.0.0 is out (this is ${SVC_VERSION}): npm install -g svc@latest; SVC_NO_UPDATE_NOTIFIER=1 silences this\n`);
    expect((await run(cache)).stderr).toBe('');
  });

  it('never with CI set, off a terminal, with SVC_NO_UPDATE_NOTIFIER=1 or under --no-input; and then starts no check either', async () => {
    for (const [env, tty, args] of [
      [{ CI: 'true' }, true, undefined],
      [{}, false, undefined],
      [{ SVC_NO_UPDATE_NOTIFIER: '1' }, true, undefined],
      [{}, true, ['--no-input', 'config', 'profiles']],
    ] as const) {
      const cache = tempConfigDir();
      seed(cache, { checkedAt: 0, latest: '99.0.0' });
      const starts: unknown[] = [];
      const r = await run(cache, env, { tty, args: args && [...args], starts });
      expect({ env, tty, stderr: r.stderr, starts: starts.length }).toEqual({ env, tty, stderr: '', starts: 0 });
    }
  });

  it('stdin that is no terminal implies --no-input: no notice, no check; a failure said as JSON gets no notice after it (issue 45 item 20)', async () => {
    const cache = tempConfigDir();
    seed(cache, { checkedAt: 0, latest: '99.0.0' });
    const starts: unknown[] = [];
    const piped = await run(cache, {}, { stdinTty: false, args: ['config', 'list'], starts });
    expect([piped.code, piped.stderr, starts.length]).toEqual([0, '', 0]);
    const failed = await run(cache, { SVC_BASE_URL: 'http://127.0.0.1:9' }, { args: ['agents', 'get', 'nope', '-o', 'json'], starts });
    expect(failed.code).not.toBe(0);
    const lines = failed.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).error).toBeDefined();
  });

  it('update-check.json as a link is never followed nor its target overwritten; one another user owns is not trusted (issue 45 item 21)', async () => {
    const cache = tempConfigDir();
    mkdirSync(join(cache, 'svc'), { recursive: true, mode: 0o700 });
    const target = join(cache, 'target.json');
    writeFileSync(target, JSON.stringify({ checkedAt: Date.now(), latest: '99.0.0' }));
    symlinkSync(target, cacheFile(cache));
    const starts: unknown[] = [];
    const r = await run(cache, {}, { starts });
    expect(r.stderr).toBe('');
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ checkedAt: expect.any(Number), latest: '99.0.0' });
    expect(lstatSync(cacheFile(cache)).isSymbolicLink()).toBe(false);
    if (process.getuid?.() === 0) {
      const other = tempConfigDir();
      seed(other, { checkedAt: Date.now(), latest: '99.0.0' });
      chownSync(cacheFile(other), 65534, 65534);
      expect((await run(other)).stderr).toBe('');
    }
  });

  it('starts the check when the last is a day old, and once a day only', async () => {
    const cache = tempConfigDir();
    seed(cache, { checkedAt: Date.now() - DAY - 1 });
    const starts: Array<Record<string, string | undefined>> = [];
    await run(cache, { SVC_API_KEY: 'sk-secret' }, { starts });
    await run(cache, {}, { starts });
    expect(starts).toHaveLength(1);
  });
});

describe('the check itself (svc __update-check)', () => {
  let answer = { status: 200, body: '{"dist-tags":{"latest":"99.1.0"}}' };
  const reg = registry(() => answer);
  let url = '';
  beforeAll(async () => {
    url = await reg.start();
  });
  afterAll(() => reg.stop());

  it('asks for the abbreviated registry document and caches dist-tags.latest', async () => {
    const cache = tempConfigDir();
    seed(cache, { checkedAt: 123 });
    await runUpdateCheck({ XDG_CACHE_HOME: cache, SVC_UPDATE_URL: url });
    expect(JSON.parse(readFileSync(cacheFile(cache), 'utf8'))).toMatchObject({ checkedAt: 123, latest: '99.1.0' });
    expect(reg.seen.at(-1)).toContain('application/vnd.npm.install-v1+json');
  });

  it('a failed or unreadable answer is silent and keeps what the cache knew', async () => {
    for (const a of [
      { status: 500, body: 'oops' },
      { status: 200, body: 'not json' },
      { status: 200, body: '{"dist-tags":{}}' },
    ]) {
      answer = a;
      const cache = tempConfigDir();
      seed(cache, { checkedAt: 5, latest: '1.0.0' });
      await expect(runUpdateCheck({ XDG_CACHE_HOME: cache, SVC_UPDATE_URL: url })).resolves.toBeUndefined();
      expect(JSON.parse(readFileSync(cacheFile(cache), 'utf8'))).toEqual({ checkedAt: 5, latest: '1.0.0' });
    }
  });
});

describeWith('the notice end to end, on a real terminal (script)', ['script'], () => {
  const svcBin = useBundledSvc();
  const reg = registry(() => ({ status: 200, body: '{"dist-tags":{"latest":"99.2.0"}}' }));
  let url = '';
  beforeAll(async () => {
    url = await reg.start();
  });
  afterAll(() => reg.stop());

  it('a first run starts the check detached and exits; a later run prints the notice', async () => {
    const cache = tempConfigDir();
    const env = { PATH: process.env.PATH ?? '', HOME: cache, XDG_CACHE_HOME: cache, SVC_CONFIG_DIR: join(cache, 'config'), SVC_UPDATE_URL: url };
    const onTerminal = () =>
      spawnSync('script', ['-qec', `${process.execPath} ${svcBin.bin} config profiles`, '/dev/null'], { env, encoding: 'utf8', timeout: 30_000 });
    const first = onTerminal();
    expect(first.status).toBe(0);
    expect(first.stdout).not.toContain('is out');
    await expect.poll(() => existsSync(cacheFile(cache)) && readFileSync(cacheFile(cache), 'utf8'), { timeout: 15_000 }).toContain('99.2.0');
    const second = onTerminal();
    expect(second.stdout).toContain('svc 99.2.0 is out');
  }, 60_000);
});
