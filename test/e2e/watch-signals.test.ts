// Long-running readers in a real process, stopped by a real signal: SIGTERM after a clean stop is exit 0, Ctrl-C is
// 130 (`sessions list -w`, `svc top`); and 20 sessions in one process leave stderr clean (no MaxListenersExceededWarning
// from many requests on one signal: sessions wait, listen, top).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { emuEnv, ndjson, tempConfigDir } from '../helpers/cli';
import { useFleet } from '../helpers/fleet';
import { describeWith } from '../helpers/requires';
import { waitUntil } from '../helpers/sse';
import { readPid } from '../helpers/pid-file';
import { tmuxTerminal } from '../helpers/tmux';
import { trackStreams } from '../api/stream/helpers';
import { MAX_STREAMS } from '../../src/top/state';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration, and the files its commands write. */
const work = join(repo, 'node_modules', '.cache', `watch-signals-${process.pid}`);
/** The run's shared build of svc (test/helpers/bundled.ts). */
let bin = '';
// 20 sessions that stay running for the whole file.
const t = useFleet({}, { counts: { running: 20, waiting: 0, failed: 0, idle: 2, archived: 0, working: 0 }, runningStepMs: 60_000 });
const { keys, paneShows, start, stop } = tmuxTerminal(work, 'signals');
/** Whether the emulator has `n` event streams of a session open. */
let streamsOpen: ReturnType<typeof trackStreams>;
/** The running sessions with at least `n` streams open each. */
const streamed = (n = 1) => t.fleet.sessions.running.filter((id) => streamsOpen(id, n)).length;

/** svc in its own process, off a terminal. */
function child(args: string[]) {
  const p = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, SVC_CONFIG_DIR: tempConfigDir(), ...emuEnv(t.emu) } });
  const out = { stdout: '', stderr: '' };
  p.stdout.on('data', (d) => (out.stdout += d));
  p.stderr.on('data', (d) => (out.stderr += d));
  // 'close', not 'exit': its output is read to the end by then.
  const code = new Promise<number | null>((r) => p.on('close', (c) => r(c)));
  return { p, out, code };
}

describeWith('long-running readers and real signals', ['tmux'], () => {
  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    streamsOpen = trackStreams(t.emu);
    await start({ emu: t.emu, width: 160, height: 50 });
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('sessions list -w: SIGTERM ends it with exit 0 and whole NDJSON lines, SIGINT with 130', async () => {
    const term = child(['sessions', 'list', '-w', '--interval', '100ms']);
    await waitUntil(() => ndjson(term.out.stdout).length === 22, 'the initial list', 20_000);
    term.p.kill('SIGTERM');
    expect(await term.code).toBe(0);
    expect(term.out.stdout.endsWith('\n')).toBe(true);
    expect(term.out.stderr).toBe('');

    const int = child(['sessions', 'list', '-w', '--interval', '100ms']);
    await waitUntil(() => ndjson(int.out.stdout).length === 22, 'the initial list', 20_000);
    int.p.kill('SIGINT');
    expect(await int.code).toBe(130);
    expect(int.out.stderr).toBe('error: interrupted\n');
  });

  it('sessions wait and listen on 20 running sessions: no warning on stderr', async () => {
    const ids = t.fleet.sessions.running;
    expect(ids).toHaveLength(20);
    const wait = child(['sessions', 'wait', ...ids, '--timeout', '60s']);
    const listen = child(['listen', '--status', 'running', '--exec', 'true', '--interval', '100ms']);
    await waitUntil(() => listen.out.stderr.includes('listening to'), 'listen to start', 20_000);
    // Every stream open at once, two a session (wait's and listen's): the warning came at the 11th request on one
    // process's shared signal, and a process warns as it adds the listener, before the request goes out.
    await waitUntil(() => streamed(2) === 20, 'a stream of each session open from each process', 20_000);
    wait.p.kill('SIGINT');
    listen.p.kill('SIGINT');
    expect(await wait.code).toBe(130);
    await listen.code;
    expect(wait.out.stderr).toBe('error: interrupted\n');
    expect(listen.out.stderr).not.toMatch(/Warning|memory leak/);
  });

  it('svc top on 20 running sessions: stderr clean; SIGTERM is exit 0, Ctrl-C 130', async () => {
    const pidFile = join(work, 'top.pid');
    const errFile = join(work, 'top.err');
    // The streams of the other tests' processes are closed, so each one counted below is the board's.
    await waitUntil(() => streamed() === 0, 'no stream open', 20_000);
    const run = (tag: string) =>
      keys('-l', `sh -c 'echo $$ > ${pidFile}; exec node ${bin} top --interval 200ms 2>${errFile}'; echo "END-${tag} exit=$?"`).then(() => keys('Enter'));
    await run('term');
    await paneShows(/sessions: 22 \(20 running/);
    await paneShows(/live, polled/);
    // The streams of the running rows on screen are open (one request each on the board's signal), the most it opens.
    await waitUntil(() => streamed() >= MAX_STREAMS, 'the board to open its streams', 20_000);
    process.kill(await waitUntil(() => readPid(pidFile), 'the pid file'), 'SIGTERM');
    await paneShows('END-term exit=0');
    // Only the terminal's own escapes (the cursor shown again), no line of text.
    expect(readFileSync(errFile, 'utf8').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')).toBe('');

    rmSync(pidFile);
    await run('int');
    await paneShows(/sessions: 22 \(20 running/);
    await keys('C-c');
    await paneShows('END-int exit=130');
  }, 60_000);
});
