import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseToolOptions, parseWorkerRun, parseWorkerServe } from '../../src/commands/worker/parse';
import { refusal } from './usage';

const ENV = { environment: 'env_1' };

describe('parseToolOptions: the flags worker run and worker serve share', () => {
  it('fills in the defaults: the current folder, no --max-idle of its own, confined file tools, text logs', () => {
    expect(parseToolOptions({})).toEqual({ workdir: '.', maxIdleMs: undefined, unrestrictedPaths: false, logFormat: 'text' });
  });

  it('keeps --workdir as given (resolved when the command runs), --unrestricted-paths and --log-format', () => {
    expect(parseToolOptions({ workdir: 'sandbox', unrestrictedPaths: true, logFormat: 'json' })).toEqual({
      workdir: 'sandbox',
      maxIdleMs: undefined,
      unrestrictedPaths: true,
      logFormat: 'json',
    });
  });

  it('reads --max-idle as 0 or a duration: plain seconds, ms, s, m, h', () => {
    const ms = (maxIdle: string) => parseToolOptions({ maxIdle }).maxIdleMs;
    expect([ms('0'), ms('30'), ms('250ms'), ms('1.5s'), ms('5m'), ms('1h')]).toEqual([0, 30_000, 250, 1_500, 300_000, 3_600_000]);
  });

  it('a --max-idle that is not a duration is exit 2', () => {
    expect(refusal(() => parseToolOptions({ maxIdle: 'soon' }))).toBe('--max-idle takes a duration such as 0, 30s, 5m or 1h (got "soon")');
    expect(refusal(() => parseToolOptions({ maxIdle: '-5s' }))).toMatch(/^--max-idle takes a duration/);
  });
});

describe('parseWorkerRun', () => {
  it('fills in the defaults: one row at a time, not --once, heartbeats from the lease, no --on-work, a worker ID from the host name', () => {
    const o = parseWorkerRun([], ENV);
    expect(o).toEqual({
      environmentId: 'env_1',
      workerId: expect.stringMatching(new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{6}$`)),
      concurrency: 1,
      once: false,
      heartbeatMs: undefined,
      onWork: undefined,
      workdir: '.',
      maxIdleMs: undefined,
      unrestrictedPaths: false,
      logFormat: 'text',
    });
    expect(parseWorkerRun([], ENV).workerId).not.toBe(o.workerId);
  });

  it('keeps --concurrency, --once, --heartbeat-interval (seconds, as ms), --worker-id and --on-work as given', () => {
    const o = parseWorkerRun([], { ...ENV, concurrency: '4', heartbeatInterval: '2.5', workerId: 'ci worker 1', onWork: './serve.sh --fast', maxIdle: '30s' });
    expect(o).toMatchObject({ concurrency: 4, once: false, heartbeatMs: 2_500, workerId: 'ci worker 1', onWork: './serve.sh --fast', maxIdleMs: 30_000 });
    expect(parseWorkerRun([], { ...ENV, once: true, concurrency: '1' })).toMatchObject({ once: true, concurrency: 1 });
  });

  it('no --environment is exit 2', () => {
    expect(refusal(() => parseWorkerRun([], {}))).toBe('--environment is required: the self-hosted environment whose queue to serve');
  });

  it('a --concurrency outside 1..1000 or not a whole number is exit 2', () => {
    for (const concurrency of ['0', '1001', 'two', '1.5'])
      expect(refusal(() => parseWorkerRun([], { ...ENV, concurrency }))).toBe(`--concurrency must be an integer from 1 to 1000, got "${concurrency}"`);
  });

  it('--once with a --concurrency above 1 is exit 2: --once serves one row', () => {
    expect(refusal(() => parseWorkerRun([], { ...ENV, once: true, concurrency: '2' }))).toBe('--once serves one row; it cannot be combined with --concurrency');
  });

  it('a --heartbeat-interval that is not a positive number of seconds is exit 2', () => {
    for (const heartbeatInterval of ['0', '-1', 'often', ' '])
      expect(refusal(() => parseWorkerRun([], { ...ENV, heartbeatInterval }))).toBe(
        `--heartbeat-interval must be a positive number of seconds, got "${heartbeatInterval}"`,
      );
  });

  it('an empty --worker-id is exit 2', () => {
    expect(refusal(() => parseWorkerRun([], { ...ENV, workerId: '  ' }))).toBe('--worker-id must not be empty');
  });

  it('a --worker-id with characters a header cannot carry is exit 2', () => {
    for (const workerId of ['wörker', 'a\nb'])
      expect(refusal(() => parseWorkerRun([], { ...ENV, workerId }))).toBe('--worker-id may hold printable ASCII characters only (it is sent as a header)');
  });

  it('--unrestricted-paths with --on-work is exit 2: CMD runs the tools, so the flag belongs to the worker serve it starts', () => {
    expect(refusal(() => parseWorkerRun([], { ...ENV, onWork: './serve.sh', unrestrictedPaths: true }))).toBe(
      '--unrestricted-paths applies to the built-in tools, and with --on-work CMD runs the tools: give it to `svc worker serve` in CMD',
    );
    expect(parseWorkerRun([], { ...ENV, unrestrictedPaths: true })).toMatchObject({ unrestrictedPaths: true });
  });

  it('the shared tool flags are checked here too', () => {
    expect(refusal(() => parseWorkerRun([], { ...ENV, maxIdle: 'later' }))).toMatch(/^--max-idle takes a duration/);
  });
});

describe('parseWorkerServe', () => {
  it("is the shared tool flags: without --max-idle it keeps the hand-off's", () => {
    expect(parseWorkerServe([], { workdir: '/work' })).toEqual({ workdir: '/work', maxIdleMs: undefined, unrestrictedPaths: false, logFormat: 'text' });
    expect(parseWorkerServe([], { maxIdle: '0' })).toMatchObject({ maxIdleMs: 0 });
    expect(refusal(() => parseWorkerServe([], { maxIdle: 'x' }))).toMatch(/^--max-idle/);
  });
});
