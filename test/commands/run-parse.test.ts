import { describe, expect, it } from 'vitest';
import { MAX_PARALLEL, parseRun } from '../../src/commands/run/parse';
import { refusal } from './usage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('parseRun: one run', () => {
  it('fills in the defaults: a new session of --agent with a fresh create key, no deadline, no deltas, the live view allowed', () => {
    const o = parseRun([], { agent: 'agent_1', message: 'hi' });
    expect(o).toEqual({
      mode: 'single',
      target: { agent: 'agent_1', environment: undefined, createKey: expect.stringMatching(UUID) },
      message: { from: 'text', text: 'hi' },
      timeoutMs: undefined,
      deltas: false,
      noLive: false,
      resume: false,
      interruptOnExit: false,
    });
    expect(parseRun([], { agent: 'agent_1', message: 'hi' })).not.toEqual(o);
  });

  it('keeps --environment, --idempotency-key, --timeout as milliseconds, --deltas and --no-live', () => {
    const o = parseRun([], { agent: 'a', environment: 'env', idempotencyKey: 'k-1', message: 'hi', timeout: '10m', deltas: true, live: false });
    expect(o).toMatchObject({ target: { agent: 'a', environment: 'env', createKey: 'k-1' }, timeoutMs: 600_000, deltas: true, noLive: true });
  });

  it('takes the message from --message, --message-file or - (standard input)', () => {
    expect(parseRun([], { agent: 'a', message: '' })).toMatchObject({ message: { from: 'text', text: '' } });
    expect(parseRun([], { agent: 'a', messageFile: 'prompt.md' })).toMatchObject({ message: { from: 'file', file: 'prompt.md' } });
    expect(parseRun(['-'], { agent: 'a' })).toMatchObject({ message: { from: 'stdin' } });
  });

  it('reuses --session instead of creating one', () => {
    expect(parseRun([], { session: 'sesn_1', message: 'hi' })).toMatchObject({ mode: 'single', target: { session: 'sesn_1' } });
  });

  it('no --agent and no --session is exit 2', () => {
    expect(refusal(() => parseRun([], { message: 'hi' }))).toBe('--agent is required (or --session to reuse a session)');
    expect(refusal(() => parseRun([], { agent: '', message: 'hi' }))).toMatch(/^--agent is required/);
  });

  it('--agent, --environment or --idempotency-key with --session is exit 2: they shape a new session, and --session creates none', () => {
    for (const [flags, flag] of [
      [{ agent: 'agent_1' }, '--agent'],
      [{ environment: 'env_1' }, '--environment'],
      [{ idempotencyKey: 'k' }, '--idempotency-key'],
    ] as const) {
      expect(refusal(() => parseRun([], { session: 'sesn_1', message: 'hi', ...flags }))).toBe(
        `${flag} applies to a new session, and --session reuses one: drop one of the two`,
      );
    }
  });

  it('no message, or more than one, is exit 2', () => {
    const once = 'give the message once: --message T, --message-file F, or - for standard input';
    expect(refusal(() => parseRun([], { agent: 'a' }))).toBe(once);
    expect(refusal(() => parseRun(['-'], { agent: 'a', message: 'hi' }))).toBe(once);
    expect(refusal(() => parseRun([], { agent: 'a', message: 'hi', messageFile: 'f' }))).toBe(once);
  });

  it('an argument other than - is exit 2 naming it', () => {
    expect(refusal(() => parseRun(['hello'], { agent: 'a' }))).toBe('unexpected argument "hello": only - (standard input) is accepted');
  });

  it('a --timeout that is not a duration is exit 2', () => {
    expect(refusal(() => parseRun([], { agent: 'a', message: 'hi', timeout: 'later' }))).toMatch(/^--timeout takes a duration/);
    expect(refusal(() => parseRun([], { agent: 'a', message: 'hi', timeout: '0' }))).toBe('--timeout must be greater than zero');
  });

  it('an --idempotency-key over the service limit is exit 2', () => {
    expect(refusal(() => parseRun([], { agent: 'a', message: 'hi', idempotencyKey: 'k'.repeat(1000) }))).toMatch(/^--idempotency-key is over \d+ bytes$/);
  });

  it('leaves --deltas off -o ndjson to the run step: the output format is known only once the settings are read', () => {
    expect(parseRun([], { agent: 'a', message: 'hi', deltas: true })).toMatchObject({ deltas: true });
  });
});

describe('parseRun: --parallel', () => {
  const file = { agent: 'agent_1', messageFile: 'tasks.ndjson' };

  it('fills in the defaults: a fresh base key, no deadline', () => {
    expect(parseRun([], { ...file, parallel: '8' })).toEqual({
      mode: 'parallel',
      agent: 'agent_1',
      environment: undefined,
      messageFile: 'tasks.ndjson',
      parallel: 8,
      timeoutMs: undefined,
      createKey: expect.stringMatching(UUID),
      keyGiven: false,
    });
  });

  it('keeps --environment, --idempotency-key and --timeout', () => {
    const o = parseRun([], { ...file, parallel: '2', environment: 'env', idempotencyKey: 'batch', timeout: '30s' });
    expect(o).toMatchObject({ mode: 'parallel', environment: 'env', createKey: 'batch', timeoutMs: 30_000 });
  });

  it(`a --parallel outside 1..${MAX_PARALLEL} or not a number is exit 2`, () => {
    expect(refusal(() => parseRun([], { ...file, parallel: '0' }))).toBe(`--parallel must be between 1 and ${MAX_PARALLEL} (got 0)`);
    expect(refusal(() => parseRun([], { ...file, parallel: String(MAX_PARALLEL + 1) }))).toMatch(/^--parallel must be between/);
    expect(refusal(() => parseRun([], { ...file, parallel: 'many' }))).toBe('--parallel takes a whole number (got "many")');
  });

  it('without --message-file is exit 2', () => {
    expect(refusal(() => parseRun([], { agent: 'a', parallel: '2' }))).toBe('--parallel takes its messages from --message-file F.ndjson, one per line');
  });

  it('--message or - beside it is exit 2', () => {
    const drop = '--parallel reads every message from --message-file: drop --message and -';
    expect(refusal(() => parseRun([], { ...file, parallel: '2', message: 'hi' }))).toBe(drop);
    expect(refusal(() => parseRun(['-'], { ...file, parallel: '2' }))).toBe(drop);
  });

  it('--session is exit 2: each line starts a new session', () => {
    expect(refusal(() => parseRun([], { ...file, parallel: '2', session: 'sesn_1' }))).toBe(
      '--parallel starts one new session per line: it cannot reuse --session',
    );
  });

  it('no --agent is exit 2', () => {
    expect(refusal(() => parseRun([], { messageFile: 'f', parallel: '2' }))).toBe('--agent is required with --parallel');
  });

  it('--deltas is exit 2: it prints one result per line, never events', () => {
    expect(refusal(() => parseRun([], { ...file, parallel: '2', deltas: true }))).toBe('--deltas works on one run: --parallel prints one result per line');
  });

  it('a bad --timeout is exit 2 here too', () => {
    expect(refusal(() => parseRun([], { ...file, parallel: '2', timeout: 'soon' }))).toMatch(/^--timeout takes a duration/);
  });
});
