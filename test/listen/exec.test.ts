import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { execCommand } from '../../src/listen/exec';
import { tempConfigDir } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';
import { PassThrough } from 'node:stream';

const delivery = (n: number) => ({ id: `dlv_${n}`, sessionId: 'sesn_1', eventId: `sevt_${n}`, type: 'agent.message', body: '{}' });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => vi.useRealTimers());

describe('--exec with a command that leaves a child running', () => {
  it('settles each delivery when the command exits, not when the child lets go of its output, and ends the child when svc stops', async () => {
    const dir = tempConfigDir();
    const pids = join(dir, 'pids');
    const stderr = new PassThrough();
    stderr.resume();
    // The child holds the command's stdout and stderr open for five minutes.
    const dest = execCommand({ command: `sleep 300 & echo $! >> ${pids}; echo started`, env: {}, cwd: dir, concurrency: 1, stderr });
    // No timer may run: an outcome that waited on one (for the output to close) would never come.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    for (const n of [1, 2, 3]) expect(await dest.attempt(delivery(n), 1, new AbortController().signal)).toEqual({ kind: 'accepted' });
    vi.useRealTimers();
    const children = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(children).toHaveLength(3);
    expect(children.every(alive)).toBe(true);
    await dest.close!();
    await waitUntil(() => !children.some(alive), 'the children to end');
  }, 20_000);
});
