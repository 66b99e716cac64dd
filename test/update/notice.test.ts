import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_PACKAGE, SVC_REPOSITORY, SVC_VERSION } from '../../src/version';
import { latestOfOwn, repositoryKey, runUpdateCheck } from '../../src/update/check';
import { CHECK_EVERY_MS, newer, noticeLine, plan, registryUrl, type UpdateSource } from '../../src/update/notice';
import { compareVersions } from '../../src/update/semver';
import { svc, tempConfigDir } from '../helpers/cli';
import { useBundledSvc } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';

const DAY = CHECK_EVERY_MS;
const cacheFile = (cache: string) => join(cache, 'svc', 'update-check.json');
/** The source a run without SVC_UPDATE_URL reads: the registry's document of svc's own package name. */
const REGISTRY: UpdateSource = { url: registryUrl(SVC_PACKAGE), name: SVC_PACKAGE };
function seed(cache: string, state: object, source: UpdateSource = REGISTRY): void {
  mkdirSync(join(cache, 'svc'), { recursive: true, mode: 0o700 });
  writeFileSync(cacheFile(cache), JSON.stringify({ ...state, source }), { mode: 0o600 });
}
const cached = (cache: string) => JSON.parse(readFileSync(cacheFile(cache), 'utf8')) as Record<string, unknown>;
/** svc's own registry document (its name and repository, as package.json gives them) naming `latest`. */
const ours = (latest: string) => JSON.stringify({ name: SVC_PACKAGE, repository: SVC_REPOSITORY, 'dist-tags': { latest } });

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

describe('the package is ours', () => {
  it("svc's package name is package.json's, which nobody else publishes, and the command stays svc", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { name: string; bin: object; repository: unknown };
    expect(SVC_PACKAGE).toBe(pkg.name);
    expect(SVC_PACKAGE).not.toBe('svc');
    expect(pkg.bin).toEqual({ svc: 'bin/svc.js' });
    expect(repositoryKey(pkg.repository)).toBe(repositoryKey(SVC_REPOSITORY));
  });

  it("the upgrade line is built from the package's name, never a fixed one", () => {
    expect(noticeLine('0.1.0', '0.2.0', false)).toContain(`npm install -g ${SVC_PACKAGE}@latest;`);
    expect(noticeLine('0.1.0', '0.2.0', false, '@acme/tool')).toContain('npm install -g @acme/tool@latest;');
    expect(registryUrl('@acme/tool')).toBe('https://registry.npmjs.org/@acme%2Ftool');
  });

  it("a repository's URL forms name one repository: git+https, .git, ssh, shorthand, string or object", () => {
    const forms = [
      'git+https://github.com/hosted-agent/svc.git',
      'https://github.com/hosted-agent/svc',
      'https://github.com/Hosted-Agent/svc.git/',
      'git://github.com/hosted-agent/svc.git',
      'git+ssh://git@github.com/hosted-agent/svc.git',
      'git@github.com:hosted-agent/svc.git',
      'github:hosted-agent/svc',
      'hosted-agent/svc',
      { type: 'git', url: 'git+https://github.com/hosted-agent/svc.git' },
    ];
    for (const form of forms) expect({ form, key: repositoryKey(form) }).toEqual({ form, key: 'github.com/hosted-agent/svc' });
    expect(repositoryKey('https://github.com/someone/svc')).toBe('github.com/someone/svc');
    expect(repositoryKey('https://gitlab.com/hosted-agent/svc')).toBe('gitlab.com/hosted-agent/svc');
    expect(repositoryKey(undefined)).toBeUndefined();
    expect(repositoryKey({ type: 'git' })).toBeUndefined();
  });

  it("a document is believed only when its name and repository are svc's own", () => {
    const doc = { name: SVC_PACKAGE, repository: 'https://github.com/hosted-agent/svc', 'dist-tags': { latest: '2.0.0' } };
    expect(latestOfOwn(doc, REGISTRY)).toBe('2.0.0');
    expect(latestOfOwn({ ...doc, repository: undefined, versions: { '2.0.0': { repository: 'github:hosted-agent/svc' } } }, REGISTRY)).toBe('2.0.0');
    expect(latestOfOwn({ ...doc, name: 'svc' }, REGISTRY)).toBeUndefined();
    expect(latestOfOwn({ ...doc, repository: 'https://github.com/someone/svg-converter' }, REGISTRY)).toBeUndefined();
    expect(latestOfOwn({ ...doc, repository: undefined }, REGISTRY)).toBeUndefined();
    expect(latestOfOwn(doc, REGISTRY, null)).toBeUndefined();
  });
});

describe('when a notice is due', () => {
  it('a newer x.y.z is offered; an older, equal or pre-release one never is', () => {
    expect(newer('0.2.0', '0.1.0')).toBe(true);
    expect(newer('0.10.0', '0.9.9')).toBe(true);
    expect(newer('0.1.0', '0.1.0')).toBe(false);
    expect(newer('0.0.9', '0.1.0')).toBe(false);
    expect(newer('0.2.0-beta.1', '0.1.0')).toBe(false);
  });

  it('a user of a pre-release is offered its release: 1.0.0 is newer than 1.0.0-beta.1', () => {
    expect(newer('1.0.0', '1.0.0-beta.1')).toBe(true);
    expect(newer('1.0.0', '1.0.0-rc.1+build.5')).toBe(true);
    expect(newer('0.9.0', '1.0.0-beta.1')).toBe(false);
    expect(newer('1.0.0', '1.0.0+build.5')).toBe(false);
  });

  it("semver's precedence: numeric identifiers as numbers and below alphanumeric ones, a shorter list first", () => {
    // semver.org §11's own example, in order.
    const ordered = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 0; i < ordered.length - 1; i++) {
      expect([ordered[i], ordered[i + 1], compareVersions(ordered[i], ordered[i + 1])]).toEqual([ordered[i], ordered[i + 1], -1]);
      expect(compareVersions(ordered[i + 1], ordered[i])).toBe(1);
    }
    expect(compareVersions('1.0.0-1', '1.0.0-a')).toBe(-1);
    expect(compareVersions('1.0.0-2', '1.0.0-10')).toBe(-1);
    expect(compareVersions('1.0.0-b2', '1.0.0-b10')).toBe(1);
    expect(compareVersions('2.0.0', '10.0.0')).toBe(-1);
    expect(compareVersions('1.2.3+a', '1.2.3+b')).toBe(0);
    expect(compareVersions('1.2', '1.2.0')).toBeUndefined();
    expect(compareVersions('latest', '1.2.0')).toBeUndefined();
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
    expect(first.stderr).toBe(`svc 99.0.0 is out (this is ${SVC_VERSION}): npm install -g ${SVC_PACKAGE}@latest; SVC_NO_UPDATE_NOTIFIER=1 silences this\n`);
    expect((await run(cache)).stderr).toBe('');
  });

  it('a cache of another source (a changed SVC_UPDATE_URL, another name) is checked afresh and offers nothing', async () => {
    for (const source of [
      { url: 'http://127.0.0.1:9/old-mirror', name: SVC_PACKAGE },
      { url: registryUrl('svc'), name: 'svc' },
    ]) {
      const cache = tempConfigDir();
      seed(cache, { checkedAt: Date.now(), latest: '99.0.0' }, source);
      const starts: unknown[] = [];
      const r = await run(cache, {}, { starts });
      expect({ source, stderr: r.stderr, starts: starts.length }).toEqual({ source, stderr: '', starts: 1 });
      expect(cached(cache)).toMatchObject({ source: REGISTRY });
    }
    // The same cache read again with SVC_UPDATE_URL changed: another check, of the new URL.
    const cache = tempConfigDir();
    seed(cache, { checkedAt: Date.now(), latest: '99.0.0', notifiedAt: Date.now() });
    const starts: unknown[] = [];
    await run(cache, { SVC_UPDATE_URL: 'http://127.0.0.1:9/new-mirror' }, { starts });
    expect(starts).toHaveLength(1);
    expect(cached(cache)).toMatchObject({ source: { url: 'http://127.0.0.1:9/new-mirror', name: SVC_PACKAGE } });
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
  let answer = { status: 200, body: ours('99.1.0') };
  const reg = registry(() => answer);
  let url = '';
  beforeAll(async () => {
    url = await reg.start();
  });
  afterAll(() => reg.stop());

  it("asks for svc's own registry document and caches dist-tags.latest with the source it read", async () => {
    answer = { status: 200, body: ours('99.1.0') };
    const cache = tempConfigDir();
    seed(cache, { checkedAt: 123 }, { url, name: SVC_PACKAGE });
    await runUpdateCheck({ XDG_CACHE_HOME: cache, SVC_UPDATE_URL: url });
    expect(cached(cache)).toEqual({ checkedAt: 123, latest: '99.1.0', source: { url, name: SVC_PACKAGE } });
    // The full document: the abbreviated one (application/vnd.npm.install-v1+json) carries no `repository`.
    expect(reg.seen.at(-1)).toBe('application/json');
  });

  it("a stranger's document under the name, with a higher version, is ignored silently", async () => {
    for (const body of [
      JSON.stringify({ name: SVC_PACKAGE, repository: 'git+https://github.com/someone/svg-converter.git', 'dist-tags': { latest: '99.3.0' } }),
      JSON.stringify({ name: 'svc', repository: SVC_REPOSITORY, 'dist-tags': { latest: '99.3.0' } }),
      JSON.stringify({ name: SVC_PACKAGE, 'dist-tags': { latest: '99.3.0' } }),
    ]) {
      answer = { status: 200, body };
      const cache = tempConfigDir();
      seed(cache, { checkedAt: 5, latest: '1.0.0' }, { url, name: SVC_PACKAGE });
      await expect(runUpdateCheck({ XDG_CACHE_HOME: cache, SVC_UPDATE_URL: url })).resolves.toBeUndefined();
      expect(cached(cache)).toEqual({ checkedAt: 5, latest: '1.0.0', source: { url, name: SVC_PACKAGE } });
    }
  });

  it('a failed or unreadable answer is silent and keeps what the cache knew', async () => {
    for (const a of [
      { status: 500, body: 'oops' },
      { status: 200, body: 'not json' },
      { status: 200, body: '{"dist-tags":{}}' },
    ]) {
      answer = a;
      const cache = tempConfigDir();
      seed(cache, { checkedAt: 5, latest: '1.0.0' }, { url, name: SVC_PACKAGE });
      await expect(runUpdateCheck({ XDG_CACHE_HOME: cache, SVC_UPDATE_URL: url })).resolves.toBeUndefined();
      expect(cached(cache)).toEqual({ checkedAt: 5, latest: '1.0.0', source: { url, name: SVC_PACKAGE } });
    }
  });
});

describeWith('the notice end to end, on a real terminal (script)', ['script'], () => {
  const svcBin = useBundledSvc();
  let body = ours('99.2.0');
  const reg = registry(() => ({ status: 200, body }));
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
    expect(second.stdout).toContain(`svc 99.2.0 is out (this is ${SVC_VERSION}): npm install -g ${SVC_PACKAGE}@latest;`);
  }, 60_000);

  it("a stranger's document with a higher version: checked, and no notice ever", async () => {
    body = JSON.stringify({ name: SVC_PACKAGE, repository: 'https://github.com/someone/svg-converter', 'dist-tags': { latest: '99.9.0' } });
    const cache = tempConfigDir();
    const env = { PATH: process.env.PATH ?? '', HOME: cache, XDG_CACHE_HOME: cache, SVC_CONFIG_DIR: join(cache, 'config'), SVC_UPDATE_URL: url };
    const onTerminal = () =>
      spawnSync('script', ['-qec', `${process.execPath} ${svcBin.bin} config profiles`, '/dev/null'], { env, encoding: 'utf8', timeout: 30_000 });
    const asked = reg.seen.length;
    expect(onTerminal().status).toBe(0);
    await expect.poll(() => reg.seen.length, { timeout: 15_000 }).toBeGreaterThan(asked);
    // The detached check has read the document; give it the moment it needs to write (it must write no version).
    await new Promise((r) => setTimeout(r, 500));
    expect(cached(cache)).not.toHaveProperty('latest');
    const second = onTerminal();
    expect(second.stdout).not.toContain('is out');
  }, 60_000);
});
