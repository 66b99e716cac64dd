import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InterruptedError, UsageError } from '../../src/runtime/errors';
import { breakIfStale, lockText, releaseLock, tryLock, waitForLock, withLock, type LockKind, type LockWait } from '../../src/fs/lock';
import { tempConfigDir } from '../helpers/cli';

const KIND: LockKind = { noun: 'test lock', holder: 'svc test' };
const wait = (o: Partial<LockWait> = {}): LockWait => ({ kind: KIND, waitMs: 60_000, maxPauseMs: 20, timedOut: () => new Error('timed out'), ...o });
/** A pid of a process that has exited. */
const gonePid = () => spawnSync('true').pid!;

describe('the one lock file (config, apply, listen --state)', () => {
  it('two contenders: the second waits, told once who holds it, and runs only after the first released it', async () => {
    const lock = join(tempConfigDir(), 'set.lock');
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = withLock(lock, wait(), async () => {
      order.push('first in');
      await held;
      order.push('first out');
    });
    const told: number[] = [];
    const second = withLock(lock, wait({ onHeld: (h) => told.push(h.pid) }), () => {
      order.push('second in');
      return 'done';
    });
    // The second has found the lock held before the first lets go.
    while (told.length === 0) await new Promise((r) => setImmediate(r));
    release();
    expect(await second).toBe('done');
    await first;
    expect(order).toEqual(['first in', 'first out', 'second in']);
    expect(told).toEqual([process.pid]);
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock whose holder is gone (kill -9) is taken over at once, with nothing told', async () => {
    const lock = join(tempConfigDir(), 'state.json.lock');
    writeFileSync(lock, `${gonePid()} abc123`);
    const told: number[] = [];
    const mine = lockText();
    await waitForLock(lock, mine, wait({ onHeld: (h) => told.push(h.pid) }));
    expect(readFileSync(lock, 'utf8')).toBe(mine);
    expect(told).toEqual([]);
    releaseLock(lock, mine);
    expect(existsSync(lock)).toBe(false);
  });

  it('a holder judged gone whose lock was released and taken meanwhile: the new holder’s lock is left as it is', () => {
    const lock = join(tempConfigDir(), 'config.json.lock');
    const taken = `${process.pid} newholder`;
    writeFileSync(lock, taken);
    // Read before the old holder released the lock and exited; judged only after another took it.
    const judged = { text: `${gonePid()} oldholder`, pid: gonePid(), mtimeMs: Date.now() - 1_000 };
    expect(breakIfStale(lock, judged, KIND)).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(taken);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('breakers take turns: a stale lock is left while another breaks it, and a break lock a killed breaker left is cleared', () => {
    const lock = join(tempConfigDir(), 'config.json.lock');
    const stale = `${gonePid()} oldholder`;
    writeFileSync(lock, stale);
    writeFileSync(`${lock}.break`, `${process.pid} breaker`);
    expect(tryLock(lock, lockText(), KIND)).toMatchObject({ text: stale });
    expect(readFileSync(lock, 'utf8')).toBe(stale);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${lock}.break`, old, old);
    expect(tryLock(lock, lockText(), KIND)).toMatchObject({ text: stale });
    expect(existsSync(`${lock}.break`)).toBe(false);
    const mine = lockText();
    expect(tryLock(lock, mine, KIND)).toBeUndefined();
    expect(readFileSync(lock, 'utf8')).toBe(mine);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('a break lock that is not a file svc made (a folder) is refused naming it, and the stale lock is left', () => {
    const lock = join(tempConfigDir(), 'config.json.lock');
    const stale = `${gonePid()} oldholder`;
    writeFileSync(lock, stale);
    mkdirSync(`${lock}.break`);
    expect(() => tryLock(lock, lockText(), { ...KIND, refusal: ConfigError })).toThrow(
      new ConfigError(`cannot understand ${lock}.break (not a regular file); if no svc test is running, remove it`),
    );
    expect(readFileSync(lock, 'utf8')).toBe(stale);
  });

  it('a live holder is stale past the kind’s staleMs (its pid may be reused), and never without one', () => {
    const lock = join(tempConfigDir(), 'config.json.lock');
    writeFileSync(lock, `${process.pid} oldholder`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(tryLock(lock, lockText(), KIND)).toMatchObject({ pid: process.pid, text: `${process.pid} oldholder` });
    const mine = lockText();
    expect(tryLock(lock, mine, { ...KIND, staleMs: 10_000 })).toBeUndefined();
    expect(readFileSync(lock, 'utf8')).toBe(mine);
  });

  it('an empty lock is its creator still writing it: held while fresh, stale once old', () => {
    const lock = join(tempConfigDir(), 'a.lock');
    writeFileSync(lock, '');
    expect(tryLock(lock, lockText(), KIND)).toMatchObject({ pid: 0, text: '' });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(tryLock(lock, lockText(), KIND)).toBeUndefined();
  });

  it('a lock of content svc did not write is refused naming it, in the kind’s error class, and left alone', () => {
    const lock = join(tempConfigDir(), 'config.json.lock');
    writeFileSync(lock, 'hello\n');
    expect(() => tryLock(lock, lockText(), { ...KIND, refusal: ConfigError })).toThrow(
      new ConfigError(`cannot understand the test lock ${lock} (content svc did not write); if no svc test is running, remove it`),
    );
    expect(() => tryLock(lock, lockText(), KIND)).toThrow(UsageError);
    expect(readFileSync(lock, 'utf8')).toBe('hello\n');
  });

  it('a wait ends with the kind’s error at its deadline, and with InterruptedError when aborted, the holder’s lock kept', async () => {
    const lock = join(tempConfigDir(), 'b.lock');
    writeFileSync(lock, `${process.pid} liveholder`);
    await expect(waitForLock(lock, lockText(), wait({ waitMs: 0, timedOut: () => new UsageError('gave up') }))).rejects.toThrow('gave up');
    const stop = new AbortController();
    const waiting = waitForLock(lock, lockText(), wait({ maxPauseMs: 60_000, signal: stop.signal, onHeld: () => stop.abort() }));
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} liveholder`);
  });
});
