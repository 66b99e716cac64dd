import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLockPath, withApplyLock } from '../../src/apply/lock';
import { ExitCodeError } from '../../src/runtime/errors';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const log: string[] = [];
const t = useEmulator({ log: (l) => log.push(l) });

const run = (args: string[], o: SvcOptions = {}) => svc(args, { columns: 200, ...o, env: { ...emuEnv(t.emu), NO_COLOR: '1', ...o.env } });
const named = async (path: string, name: string) =>
  ((await call(t.emu, 'GET', `${path}?page_size=1000`)).body.items as Array<Record<string, any>>).filter((x) => x.name === name);

function configFolder(agent: string, env: string): string {
  const dir = tempConfigDir();
  writeFileSync(join(dir, 'agent.yaml'), `kind: Agent\nname: ${agent}\nmodel: m\n`);
  writeFileSync(join(dir, 'env.yaml'), `kind: Environment\nname: ${env}\nconfig: {type: cloud}\n`);
  return dir;
}

describe('svc apply: one apply of a set at a time', () => {
  it('four parallel applies of one folder create exactly one agent and one environment, and a fifth finds them unchanged', async () => {
    const dir = configFolder('parallel-agent', 'parallel-env');
    const config = tempConfigDir();
    const applyOnce = () => run(['apply', '-f', '.', '--set', 'parallel'], { cwd: dir, env: { SVC_CONFIG_DIR: config } });
    const results = await Promise.all([applyOnce(), applyOnce(), applyOnce(), applyOnce()]);
    for (const r of results) expect(r.code).toBe(0);
    expect(await named('/v1/agents', 'parallel-agent')).toHaveLength(1);
    expect(await named('/v1/environments', 'parallel-env')).toHaveLength(1);
    const fifth = await applyOnce();
    expect(fifth.code).toBe(0);
    expect(JSON.parse(fifth.stdout).map((e: { action: string }) => e.action)).toEqual(['unchanged', 'unchanged']);
    // The lock is gone once every apply is done.
    expect(readdirSync(config).filter((f) => f.startsWith('apply-'))).toEqual([]);
  });

  it.each([
    ['a folder', (lock: string) => mkdirSync(lock), 'a folder'],
    ['a dangling symlink', (lock: string) => symlinkSync(join(lock, '..', 'nowhere'), lock), 'a symbolic link'],
    ['a file svc did not write', (lock: string) => writeFileSync(lock, 'hello\n'), 'content svc did not write'],
  ])('an apply lock that is %s is exit 2 naming it, with nothing sent', async (_what, make, why) => {
    const dir = configFolder('locked-agent', 'locked-env');
    const config = tempConfigDir();
    const lock = applyLockPath(config, t.emu.url, 'locked');
    make(lock);
    const from = log.length;
    const r = await run(['apply', '-f', '.', '--set', 'locked'], { cwd: dir, env: { SVC_CONFIG_DIR: config } });
    expect(r.stderr).toBe(`error: cannot understand the apply lock ${lock} (${why}); if no svc apply is running, remove it\n`);
    expect(r.code).toBe(2);
    expect(log.slice(from)).toEqual([]);
  });

  it('a lock left by a process that is gone (kill -9) is taken over', async () => {
    const dir = configFolder('stale-lock-agent', 'stale-lock-env');
    const config = tempConfigDir();
    const gone = spawnSync('true').pid;
    writeFileSync(applyLockPath(config, t.emu.url, 'stale'), `${gone} abc123`);
    const r = await run(['apply', '-f', '.', '--set', 'stale'], { cwd: dir, env: { SVC_CONFIG_DIR: config } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(applyLockPath(config, t.emu.url, 'stale'))).toBe(false);
  });

  it('a dry run and diff take no lock', async () => {
    const dir = configFolder('dry-lock-agent', 'dry-lock-env');
    const config = tempConfigDir();
    mkdirSync(applyLockPath(config, t.emu.url, 'dry'));
    expect((await run(['apply', '-f', '.', '--set', 'dry', '--dry-run'], { cwd: dir, env: { SVC_CONFIG_DIR: config } })).code).toBe(0);
    expect((await run(['diff', '-f', '.', '--set', 'dry'], { cwd: dir, env: { SVC_CONFIG_DIR: config } })).code).toBe(1);
  });

  it('waits for a live holder and gives up after its deadline with exit 7, saying so once', async () => {
    const config = tempConfigDir();
    writeFileSync(applyLockPath(config, 'https://svc.example', 'held'), `${process.pid} otherholder`);
    const notes: string[] = [];
    const err = await withApplyLock(
      { dir: config, service: 'https://svc.example', set: 'held', note: (l) => notes.push(l), waitMs: 300 },
      async () => 'ran',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExitCodeError);
    expect((err as ExitCodeError).exitCode).toBe(7);
    expect(notes).toEqual([`note: waiting for another svc apply of set "held" (pid ${process.pid}) to finish`]);
  });
});
