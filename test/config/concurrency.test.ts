// Issue 13 "Config writes under concurrency", and a config folder that would hang mkdir: real processes.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idleInEventLoop, spawnSvc, useBundledSvc } from '../helpers/bundled';
import { svc, tempConfigDir } from '../helpers/cli';

const svcBin = useBundledSvc();

const profilesIn = (dir: string): string[] => Object.keys(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles).sort();
const leftovers = (dir: string): string[] => readdirSync(dir).filter((f) => f !== 'config.json');

async function parallelSets(n: number): Promise<void> {
  const dir = tempConfigDir();
  const names = Array.from({ length: n }, (_, i) => `p${String(i).padStart(3, '0')}`);
  const runs = await Promise.all(
    names.map((name) => spawnSvc(svcBin.bin, ['--profile', name, 'config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir }).exit),
  );
  expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
  expect(profilesIn(dir)).toEqual(names);
  expect(leftovers(dir)).toEqual([]);
}

describe('parallel config writers lose nothing', () => {
  it('20 parallel `svc config set` on 20 profiles: all 20 survive', () => parallelSets(20), 120_000);
  it('100 parallel `svc config set` on 100 profiles: all 100 survive', () => parallelSets(100), 300_000);

  it('kill -9 in a write loop leaves a valid file, and the next write recovers the lock and leaves nothing behind', async () => {
    const dir = tempConfigDir();
    let killed = 0;
    for (let i = 0; i < 12; i++) {
      const p = spawnSvc(svcBin.bin, ['--profile', `k${i}`, 'config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir });
      // Kill at a different point of each run: from start-up to the middle of the write.
      await new Promise((r) => setTimeout(r, 20 + ((i * 37) % 200)));
      p.child.kill('SIGKILL');
      if ((await p.exit).signal === 'SIGKILL') killed++;
      const text = (() => {
        try {
          return readFileSync(join(dir, 'config.json'), 'utf8');
        } catch {
          return undefined; // no write has landed yet
        }
      })();
      if (text !== undefined) expect(() => JSON.parse(text)).not.toThrow();
    }
    expect(killed).toBeGreaterThan(0);
    const last = await spawnSvc(svcBin.bin, ['--profile', 'after', 'config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: dir }).exit;
    expect(last.stderr).toBe('set output in profile after\n');
    expect(last.code).toBe(0);
    expect(profilesIn(dir)).toContain('after');
    expect(leftovers(dir)).toEqual([]);
  }, 120_000);

  it('a lock left by a process that is gone is broken at once', async () => {
    const dir = tempConfigDir();
    // A pid that cannot be alive: above the kernel's pid_max.
    writeFileSync(join(dir, 'config.json.lock'), '99999999 dead-holder');
    const r = await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a lock held by a live process is waited for, then taken', async () => {
    const dir = tempConfigDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, `${process.pid} live-holder`);
    const p = spawnSvc(svcBin.bin, ['config', 'set', 'output', 'yaml'], { SVC_CONFIG_DIR: dir });
    let exited = false;
    void p.exit.then(() => (exited = true));
    // Until it sleeps between attempts at the lock; the holder keeps the lock fresh meanwhile.
    while (!exited && !idleInEventLoop(p.child.pid!)) {
      utimesSync(lock, new Date(), new Date());
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(exited).toBe(false);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} live-holder`);
    unlinkSync(lock);
    const r = await p.exit;
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.output).toBe('yaml');
  }, 60_000);
});

/** The run's result, or undefined if it is still running after 20 s (it hangs). */
async function within20s(args: string[], env: Record<string, string>) {
  const p = spawnSvc(svcBin.bin, args, env);
  try {
    return await Promise.race([p.exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000))]);
  } finally {
    p.child.kill('SIGKILL');
  }
}

describe('a config that would make svc wait is exit 2 at once', () => {
  it('SVC_CONFIG_DIR=/proc/x is exit 2 naming the folder, not a hang in mkdir', async () => {
    const r = await within20s(['config', 'set', 'output', 'json'], { SVC_CONFIG_DIR: '/proc/svc-test/x' });
    expect(r?.code).toBe(2);
    expect(r?.stderr).toMatch(/^error: cannot create config folder \/proc\/svc-test\/x: E[A-Z]+\n$/);
  }, 30_000);

  it('a config file that is a FIFO is exit 2, not a wait for a writer', async () => {
    const dir = tempConfigDir();
    execFileSync('mkfifo', [join(dir, 'config.json')]);
    const r = await within20s(['agents', 'list'], { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' });
    expect(r?.code).toBe(2);
    expect(r?.stderr).toBe(`error: config file ${join(dir, 'config.json')} is not a regular file; fix or remove it\n`);
  }, 30_000);
});
