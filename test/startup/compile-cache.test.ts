import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A request svc cannot make (exit 10), with only these variables (no HOME unless given): it loads the HTTP client's
 * chunks too.
 */
function request(env: Record<string, string>): { stdout: string; status: number | null; stderr: string } {
  const args = ['agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0'];
  const r = spawnSync(process.execPath, [join(root, 'bin/svc.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: tempConfigDir(), ...env },
    encoding: 'utf8',
  });
  return { stdout: r.stdout, status: r.status, stderr: r.stderr };
}

/** The one folder of entries under `<cache>/svc/compile-cache` (named for svc's and Node's versions, then the install). */
function entriesDir(cache: string): string {
  const versions = join(cache, 'svc', 'compile-cache');
  const install = join(versions, readdirSync(versions)[0]!);
  return join(install, readdirSync(install)[0]!);
}

const asRoot = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
const asNobody = (...cmd: string[]) => {
  const r = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...cmd], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setpriv ${cmd.join(' ')}: ${r.stderr}`);
};

const inodes = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).ino]));

// CI builds dist/ first: there a missing build fails these tests instead of skipping them.
describe.skipIf(!existsSync(join(root, 'dist/cli.js')) && !process.env.CI)("the compiled-code cache, svc's own on every Node (needs `npm run build`)", () => {
  it('the first run writes an entry for dist/core.js and one per other chunk it loaded (0600 in a 0700 folder); the next run uses them and rewrites none', () => {
    const cache = tempConfigDir();
    const first = request({ XDG_CACHE_HOME: cache });
    expect(first.status).toBe(10);
    const dir = entriesDir(cache);
    const entries = readdirSync(dir);
    // Named after the bundle's files (PATH@size-mtime-inode).
    const files = entries.map((e) => decodeURIComponent(e.slice(0, e.lastIndexOf('@'))));
    expect(files).toContain('core.js');
    expect(files.every((f) => existsSync(join(root, 'dist', f)))).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of entries) expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);

    const before = inodes(dir);
    const second = request({ XDG_CACHE_HOME: cache });
    expect(second).toEqual(first);
    // An entry V8 refused (a different flag set, a stale source) would be written again, under a new inode.
    expect(inodes(dir)).toEqual(before);
  });

  it('linked-core: the command tree comes from dist/core.js, a request command adds dist/core-request.js, and their chunks have no entry of their own', () => {
    const table = (name: string) => runInNewContext(readFileSync(join(root, 'dist', name), 'utf8')) as { chunks: object; next: string[] };
    const [tree, added] = [table('core.js'), table('core-request.js')];
    expect(Object.keys(tree.chunks)).toContain('cli.js');
    expect(tree.next).toEqual(Object.keys(added.chunks));
    expect(tree.next.some((f) => f.startsWith('chunks/client-'))).toBe(true);
    const linked = [...Object.keys(tree.chunks), ...tree.next];
    expect(linked.every((f) => existsSync(join(root, 'dist', f)))).toBe(true);
    const cache = tempConfigDir();
    const files = () => readdirSync(entriesDir(cache)).map((e) => decodeURIComponent(e.slice(0, e.lastIndexOf('@'))));
    // `svc --help` reads the command tree's file alone: not the HTTP client's chunks.
    const help = spawnSync(process.execPath, [join(root, 'bin/svc.js'), '--help'], { env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: cache } });
    expect(help.status).toBe(0);
    expect(files()).toEqual(['core.js']);
    expect(request({ XDG_CACHE_HOME: cache }).status).toBe(10);
    expect(files().filter((f) => linked.includes(f))).toEqual([]);
    // One read and one entry a file instead of one of each a chunk: at most a few chunks outside them.
    expect(files()).toContain('core-request.js');
    expect(files().length).toBeLessThan(6);
  });

  it('an entry with a bad %-escape in its name is skipped quietly: no stack trace, and the cache is refilled', () => {
    const cache = tempConfigDir();
    const first = request({ XDG_CACHE_HOME: cache });
    const dir = entriesDir(cache);
    const good = readdirSync(dir).find((e) => e.startsWith('core.js@'))!;
    rmSync(join(dir, good));
    writeFileSync(join(dir, '%E0%A4%A@1-2-3'), 'not an entry', { mode: 0o600 });
    const second = request({ XDG_CACHE_HOME: cache });
    expect(second).toEqual(first);
    expect(second.stderr).not.toMatch(/URIError|\n\s+at /);
    expect(readdirSync(dir).some((e) => e.startsWith('core.js@'))).toBe(true);
  });

  it('a long run writes its entries a second in: a worker or a live view killed with -9 has still filled the cache', async () => {
    const cache = tempConfigDir();
    const child = spawn(process.execPath, [join(root, 'bin/svc.js'), 'emulator', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: tempConfigDir(), XDG_CACHE_HOME: cache },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const written = async () => {
        for (let i = 0; i < 100; i++) {
          if (existsSync(join(cache, 'svc')) && readdirSync(entriesDir(cache)).some((e) => e.startsWith('core.js@'))) return true;
          await new Promise((r) => setTimeout(r, 50));
        }
        return false;
      };
      expect(await written()).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a damaged entry is refused by V8: the command runs as before and the entry is written again', () => {
    const cache = tempConfigDir();
    const clean = request({ XDG_CACHE_HOME: cache });
    const file = join(
      entriesDir(cache),
      readdirSync(entriesDir(cache)).find((e) => e.startsWith('core.js@'))!,
    );
    writeFileSync(file, 'not a code cache');
    const again = request({ XDG_CACHE_HOME: cache });
    expect(again).toEqual(clean);
    expect(readFileSync(file, 'utf8')).not.toBe('not a code cache');
  });

  it('an entry never runs another text of its file: a file rewritten at the same length runs its new code; entries of old texts and gone files go', () => {
    // The cache over a folder of our own: V8 checks only a source's length, so the entry's name must tell texts apart.
    const code = tempConfigDir();
    const cache = tempConfigDir();
    const load = () => {
      const script = `require(${JSON.stringify(join(root, 'dist/startup.js'))}).prepareStartup(module.constructor, ${JSON.stringify(code)}, { XDG_CACHE_HOME: ${JSON.stringify(cache)} });
        const fs = require('node:fs');
        if (fs.existsSync(${JSON.stringify(join(code, 'gone.js'))})) require(${JSON.stringify(join(code, 'gone.js'))});
        process.stdout.write(require(${JSON.stringify(join(code, 'chunk.js'))}));`;
      return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout;
    };
    writeFileSync(join(code, 'chunk.js'), "module.exports = 'old text';");
    writeFileSync(join(code, 'gone.js'), 'module.exports = 1;');
    expect(load()).toBe('old text');
    expect(load()).toBe('old text');
    const before = readdirSync(entriesDir(cache));
    expect(before.map((e) => e.slice(0, e.indexOf('@'))).sort()).toEqual(['chunk.js', 'gone.js']);
    writeFileSync(join(code, 'chunk.js'), "module.exports = 'new text';");
    rmSync(join(code, 'gone.js'));
    expect(load()).toBe('new text');
    const after = readdirSync(entriesDir(cache));
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^chunk\.js@/);
    expect(before).not.toContain(after[0]);
  });

  it('HOME falls back to ~/.cache; NODE_DISABLE_COMPILE_CACHE and an unusable cache folder leave the command as it was', () => {
    const home = tempConfigDir();
    const expected = request({ HOME: home });
    expect(expected.status).toBe(10);
    expect(readdirSync(entriesDir(join(home, '.cache'))).length).toBeGreaterThan(0);

    const off = tempConfigDir();
    expect(request({ XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual(expected);
    expect(existsSync(join(off, 'svc'))).toBe(false);

    // A relative XDG_CACHE_HOME or HOME is ignored, as XDG says: nothing is written where svc happens to run.
    const cwd = tempConfigDir();
    const relative = spawnSync(
      process.execPath,
      [join(root, 'bin/svc.js'), 'agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0'],
      {
        cwd,
        env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: tempConfigDir(), XDG_CACHE_HOME: 'cache', HOME: 'home' },
        encoding: 'utf8',
      },
    );
    expect({ stdout: relative.stdout, status: relative.status, stderr: relative.stderr }).toEqual(expected);
    expect(readdirSync(cwd)).toEqual([]);

    // A file where the folder should be (a read-only folder would prove nothing to root, who runs CI).
    const blocked = join(tempConfigDir(), 'file');
    writeFileSync(blocked, '');
    expect(request({ XDG_CACHE_HOME: blocked })).toEqual(expected);

    // A folder others may write to: its entries could be anyone's code, so svc neither reads nor writes there.
    const shared = tempConfigDir();
    request({ XDG_CACHE_HOME: shared });
    const sharedEntries = entriesDir(shared);
    rmSync(sharedEntries, { recursive: true });
    mkdirSync(sharedEntries, { mode: 0o777 });
    chmodSync(sharedEntries, 0o777);
    expect(request({ XDG_CACHE_HOME: shared })).toEqual(expected);
    expect(readdirSync(sharedEntries)).toEqual([]);
  });

  it('a symlinked cache folder is never followed: nothing is written into its target and nothing there is removed', () => {
    const cache = tempConfigDir();
    const expected = request({ XDG_CACHE_HOME: tempConfigDir() });
    const target = tempConfigDir();
    writeFileSync(join(target, 'getty@tty1.service'), 'a file svc did not name');
    writeFileSync(join(target, 'cli.js@1-2-3'), 'named like an entry, in a folder svc was led to');
    // Each level in turn a link to the target: the cache root's svc folder, then the entries' own folder.
    symlinkSync(target, join(cache, 'svc'));
    expect(request({ XDG_CACHE_HOME: cache })).toEqual(expected);
    expect(readdirSync(target).sort()).toEqual(['cli.js@1-2-3', 'getty@tty1.service']);
    rmSync(join(cache, 'svc'));
    request({ XDG_CACHE_HOME: cache });
    const entries = entriesDir(cache);
    rmSync(entries, { recursive: true });
    symlinkSync(target, entries);
    expect(request({ XDG_CACHE_HOME: cache })).toEqual(expected);
    expect(readdirSync(target).sort()).toEqual(['cli.js@1-2-3', 'getty@tty1.service']);
  });

  it("a chunk's require of another chunk skips Node's resolution, and every chunk is still one module of Node's cache", () => {
    const cache = tempConfigDir();
    // Counts Node's resolutions of the bundle's chunks, and lists at exit the chunk modules Node's cache holds.
    const probe = join(tempConfigDir(), 'resolutions.cjs');
    writeFileSync(
      probe,
      `const M = module.constructor; const resolve = M._resolveFilename; let n = 0;
        M._resolveFilename = function (...a) { const f = resolve.apply(this, a); if (f.includes('/dist/chunks/')) n++; return f; };
        process.on('exit', () => require('node:fs').writeSync(2, 'resolved ' + n + ' cached ' + Object.keys(M._cache).filter((f) => f.includes('/dist/chunks/')).length + '\\n'));`,
    );
    const run = (env: Record<string, string>) => {
      const args = ['-r', probe, join(root, 'bin/svc.js'), 'agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-retries', '0'];
      const r = spawnSync(process.execPath, args, { env: { PATH: process.env.PATH ?? '', SVC_CONFIG_DIR: tempConfigDir(), ...env }, encoding: 'utf8' });
      expect(r.status).toBe(10);
      const [, resolved, cached] = /resolved (\d+) cached (\d+)/.exec(r.stderr)!.map(Number);
      return { resolved, cached };
    };
    // Without the cache, Node's own loader resolves each chunk; with it, only those startup.js loads before it is on.
    const plain = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    const fast = run({ XDG_CACHE_HOME: cache });
    expect(plain.resolved).toBeGreaterThanOrEqual(plain.cached);
    expect(plain.cached).toBeGreaterThan(30);
    expect(fast.cached).toBe(plain.cached);
    expect(fast.resolved).toBeLessThan(10);
  });

  describe('as another user', { skip: !asRoot, meta: asRoot ? {} : { skipReason: 'needs root and setpriv to act as another user (nobody)' } }, () => {
    it('a shared cache root (sticky, like /tmp) where another user made svc/ first: svc neither reads nor writes a cache there', () => {
      const shared = join(tempConfigDir(), 'shared');
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      chmodSync(join(shared, '..'), 0o755);
      const expected = request({ XDG_CACHE_HOME: tempConfigDir() });
      // The other user's tree, every level open to all, with an entry of their own where the first chunk's would be.
      const versions = join(shared, 'svc', 'compile-cache');
      asNobody('mkdir', '-p', '-m', '0777', versions);
      expect(request({ XDG_CACHE_HOME: shared })).toEqual(expected);
      const made = spawnSync('find', [join(shared, 'svc'), '-user', 'root'], { encoding: 'utf8' }).stdout;
      expect(made).toBe('');
    });

    it("a cache root of the user's own where another user made svc/ (0755, theirs): no cache below it", () => {
      const cache = tempConfigDir();
      chmodSync(cache, 0o755);
      const expected = request({ XDG_CACHE_HOME: tempConfigDir() });
      chmodSync(cache, 0o1777);
      asNobody('mkdir', '-m', '0755', join(cache, 'svc'));
      chmodSync(cache, 0o700);
      expect(request({ XDG_CACHE_HOME: cache })).toEqual(expected);
      expect(readdirSync(join(cache, 'svc'))).toEqual([]);
    });
  });
});

describe('the cache folder is opened by descriptor', () => {
  it('a folder swapped for a link after it was opened is not followed: names resolve from the folder svc holds', async () => {
    const { openOwnFolders, inFolder } = await import('../../src/startup/cache-folder');
    const root = tempConfigDir();
    const fd = openOwnFolders(root, ['svc', 'entries'])!;
    expect(fd).toBeTypeOf('number');
    const elsewhere = tempConfigDir();
    // The path now leads elsewhere; the descriptor still names the folder svc checked.
    renameSync(join(root, 'svc'), join(root, 'moved'));
    symlinkSync(elsewhere, join(root, 'svc'));
    writeFileSync(inFolder(fd, 'entry'), 'x');
    expect(readdirSync(join(root, 'moved', 'entries'))).toEqual(['entry']);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("a level that is a link, another user's, or writable by others is no folder", async () => {
    const { openOwnFolders } = await import('../../src/startup/cache-folder');
    const root = tempConfigDir();
    symlinkSync(tempConfigDir(), join(root, 'svc'));
    expect(openOwnFolders(root, ['svc'])).toBeUndefined();
    const open = tempConfigDir();
    mkdirSync(join(open, 'svc'), { mode: 0o777 });
    chmodSync(join(open, 'svc'), 0o777);
    expect(openOwnFolders(open, ['svc'])).toBeUndefined();
    const shared = tempConfigDir();
    chmodSync(shared, 0o1777);
    expect(openOwnFolders(shared, ['svc'])).toBeUndefined();
    expect(existsSync(join(shared, 'svc'))).toBe(false);
  });
});
