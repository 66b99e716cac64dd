// The config folder and its lock against another local user and against files svc never makes.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtForOtherUsers, idleInEventLoop, spawnSvc, useBundledSvc } from '../helpers/bundled';
import { svc, tempConfigDir } from '../helpers/cli';

const svcBin = useBundledSvc();
const KEY = 'sk_test_hardening_0123456789';

/** The other local user: root runs the test, `nobody` plants files. */
const asRoot = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
const otherUserReason = 'needs root and setpriv to act as another user (nobody)';
const asNobody = (...cmd: string[]) => {
  const r = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...cmd], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setpriv ${cmd.join(' ')}: ${r.stderr}`);
};
/** A folder like /tmp: anyone may create entries, and only the owner of an entry may rename or remove it. */
const stickyShared = () => {
  const dir = join(tempConfigDir(), 'shared');
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  chmodSync(join(dir, '..'), 0o755);
  return dir;
};

/** A test whose attacker is another local user: skipped, with the reason in the summary, where root and setpriv are not at hand. */
const otherUser = (name: string, fn: () => Promise<void>, timeout?: number) =>
  describe('as another user', { skip: !asRoot, meta: asRoot ? {} : { skipReason: otherUserReason } }, () => it(name, fn, timeout));

const setKey = (dir: string) => svc(['config', 'set', 'api_key', '-', '--insecure-storage'], { env: { SVC_CONFIG_DIR: dir }, stdin: `${KEY}\n` });

describe("a config file others can write, or another user owns, in the user's own folder (issue 45 item 4)", () => {
  const planted = () => {
    const dir = tempConfigDir();
    const ran = join(dir, 'ran');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ aliases: { hi: `!touch ${ran}` } }));
    return { dir, ran, file: join(dir, 'config.json') };
  };

  it('a 0666 config.json holding a ! alias is refused (exit 2), the alias never runs', async () => {
    const { dir, ran, file } = planted();
    chmodSync(file, 0o666);
    const r = await svc(['hi'], { env: { SVC_CONFIG_DIR: dir } });
    expect([r.code, existsSync(ran)]).toEqual([2, false]);
    expect(r.stderr).toBe(`error: config file ${file} is writable by others (mode 666); make it private (chmod 600 ${file})\n`);
    chmodSync(file, 0o600);
    expect((await svc(['hi'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(existsSync(ran)).toBe(true);
  });

  otherUser('a config.json another user owns is refused too', async () => {
    const { dir, ran, file } = planted();
    spawnSync('chown', ['nobody', file]);
    const r = await svc(['hi'], { env: { SVC_CONFIG_DIR: dir } });
    expect([r.code, existsSync(ran)]).toEqual([2, false]);
    expect(r.stderr).toMatch(/^error: config file .* belongs to another user \(uid \d+\); use a file of your own\n$/);
  });
});

describe('a config folder others can write to is refused', () => {
  it("the user's own folder left 1777 is exit 2 naming it, for writes and reads, and nothing is written there", async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o1777);
    const set = await setKey(dir);
    expect(set.code).toBe(2);
    expect(set.stderr).toBe(`error: config folder ${dir} is writable by others (mode 1777); make it private (chmod 700 ${dir})\n`);
    expect(readdirSync(dir)).toEqual([]);
    const read = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
    expect(read.code).toBe(2);
    expect(read.stderr).toContain(`config folder ${dir} is writable by others`);
  }, 60_000);

  otherUser('a config folder another user made first (0777, with a planted temp link) gets no key and nothing follows the link', async () => {
    const shared = stickyShared();
    const dir = join(shared, 'svc');
    const stolen = join(shared, 'stolen');
    asNobody('mkdir', '-m', '0777', dir);
    asNobody('ln', '-s', stolen, join(dir, 'config.json.tmp'));
    const r = await setKey(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: config folder ${dir} belongs to another user \\(uid \\d+\\); use a folder of your own\\n$`));
    expect(existsSync(stolen)).toBe(false);
    expect(readdirSync(dir)).toEqual(['config.json.tmp']);
  });

  otherUser('a private folder of another user (0700) is refused too: its config could send the key elsewhere', async () => {
    const shared = stickyShared();
    const dir = join(shared, 'svc');
    asNobody('mkdir', '-m', '0700', dir);
    const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config folder ${dir} belongs to another user`);
  });
});

describe('the config file is written through a temp file of its own', () => {
  it('a config.json.tmp link planted in the folder is never written through: the key lands in config.json alone (0600)', async () => {
    const dir = tempConfigDir();
    const target = join(tempConfigDir(), 'received');
    symlinkSync(target, join(dir, 'config.json.tmp'));
    const r = await setKey(dir);
    expect(r.stderr).toBe('set api_key in profile default\n');
    expect(existsSync(target)).toBe(false);
    const file = lstatSync(join(dir, 'config.json'));
    expect(file.isFile()).toBe(true);
    expect(file.mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.api_key).toBe(KEY);
    // Not svc's: left as it was.
    expect(lstatSync(join(dir, 'config.json.tmp')).isSymbolicLink()).toBe(true);
  });

  it('a temp file a killed svc left behind (its pid gone) is removed by the next write; one that svc did not name is kept', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json.99999999-deadbeef.tmp'), '{}');
    writeFileSync(join(dir, 'config.json.notes.tmp'), 'mine');
    expect((await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.notes.tmp']);
  });
});

/** The run's result, or undefined if it is still running after 45 s (it hangs; the bound is wide for a loaded machine). */
async function withinBound(args: string[], env: Record<string, string>, stdin?: string) {
  const p = spawnSvc(svcBin.bin, args, env, stdin === undefined ? 'ignore' : 'pipe');
  if (stdin !== undefined) p.child.stdin!.end(stdin);
  try {
    return await Promise.race([p.exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 45_000))]);
  } finally {
    p.child.kill('SIGKILL');
  }
}

describe('a lock svc cannot understand is exit 2 naming it, never a spin', () => {
  const cases: [string, (lock: string) => void, string][] = [
    ['a folder', (lock) => mkdirSync(lock), 'a folder'],
    ['a dangling symlink', (lock) => symlinkSync(join(lock, '..', 'nowhere'), lock), 'a symbolic link'],
    ['a file svc did not write', (lock) => writeFileSync(lock, 'hello\n'), 'content svc did not write'],
  ];
  for (const [name, make, says] of cases) {
    it(`config.json.lock as ${name}: config set and auth login`, async () => {
      const dir = tempConfigDir();
      const lock = join(dir, 'config.json.lock');
      make(lock);
      const set = await withinBound(['config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir });
      expect(set?.code).toBe(2);
      expect(set?.stderr).toBe(`error: cannot understand the config lock ${lock} (${says}); if no svc is running, remove it\n`);
      const unset = await withinBound(['auth', 'logout'], { SVC_CONFIG_DIR: dir, SVC_API_KEY: KEY });
      expect(unset?.code).not.toBeUndefined();
    }, 120_000);
  }

  otherUser(
    "a lock the user cannot read (root's, 0600, in a folder of nobody's) is exit 2 naming it: svc run as nobody",
    async () => {
      const shared = stickyShared();
      const dir = join(shared, 'svc');
      asNobody('mkdir', '-m', '0700', dir);
      const lock = join(dir, 'config.json.lock');
      // Root writes into nobody's folder; the lock stays root's own.
      writeFileSync(lock, '1 someone', { mode: 0o600 });
      // nobody runs a copy it can read: the checkout may be in a folder only root may enter.
      const copy = builtForOtherUsers(svcBin.bin);
      const p = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, copy.bin, 'config', 'set', 'output', 'json'], {
        env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: dir },
        encoding: 'utf8',
        timeout: 45_000,
        killSignal: 'SIGKILL',
      });
      rmSync(copy.folder, { recursive: true, force: true });
      expect(p.stderr).toBe(`error: cannot read the config lock ${lock}: EACCES; if no svc is running, remove it\n`);
    },
    120_000,
  );

  it('SIGTERM ends a wait for a lock held by a live svc at once, exit 130', async () => {
    const dir = tempConfigDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, `${process.pid} live-holder`);
    const p = spawnSvc(svcBin.bin, ['config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir });
    let exited = false;
    void p.exit.then(() => (exited = true));
    // Waiting: it sleeps in its event loop between attempts.
    while (!exited && !idleInEventLoop(p.child.pid!)) {
      // A holder at work: its lock never grows old enough to be broken.
      utimesSync(lock, new Date(), new Date());
      await new Promise((r) => setTimeout(r, 20));
    }
    p.child.kill('SIGTERM');
    // The holder stays at work: a wait the signal did not end would last to its 30 s deadline.
    while (!exited) {
      utimesSync(lock, new Date(), new Date());
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await p.exit;
    expect(r.code).toBe(130);
    expect(r.stderr).not.toContain('stayed locked');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} live-holder`);
    // The test timeout (20 s) is shorter than the lock wait (30 s): a wait the signal did not end fails it.
  });
});
