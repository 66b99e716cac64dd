// Rules proved here: R-SESS-27, R-SESS-29, R-SESS-43
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { Capture, emuEnv, svc, tempConfigDir, type SvcOptions, ndjson } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agentSession, getSession, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
/** The writes the emulator has had (its stats count every request that is not a GET). */
const writes = async (): Promise<number> => (await call(t.emu, 'GET', '/_emulator/stats')).body.writes ?? 0;

/** A promise that counts the calls of its `then`: each `await` of it and each `.then`/`.finally` is one. */
class Watched<T> extends Promise<T> {
  waiters = 0;
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.waiters++;
    return super.then(onFulfilled, onRejected);
  }
}

let group = 0;
/** `n` idle sessions labelled with a fresh `batch` value, so a test selects only its own with `-l batch=…`. */
async function batch(n: number, extra: Record<string, unknown> = {}): Promise<{ label: string; ids: string[] }> {
  const label = `b${++group}`;
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await agentSession(t.emu, { name: `agent-${label}` }, { metadata: { batch: label }, title: `${label}-${i}`, ...extra })).id);
  return { label, ids };
}

describe('svc sessions archive|delete|interrupt|continue on many', () => {
  it('archives the sessions a label selector picks with --yes: one result per item in input order and one summary line', async () => {
    const { label, ids } = await batch(3);
    const r = await run(['sessions', 'archive', '-l', `batch=${label}`, '--yes', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout);
    expect(results.map((x) => x.id).sort()).toEqual([...ids].sort());
    expect(results.every((x) => x.ok === true && x.action === 'archive')).toBe(true);
    expect(r.stderr).toBe('archived 3, unchanged 0, failed 0\n');
    for (const id of ids) expect((await getSession(t.emu, id)).archived_at).not.toBeNull();
  });

  it('refuses more than one item off a terminal without --yes: exit 2 and nothing sent', async () => {
    const { label } = await batch(2);
    const before = await requestCount(t.emu);
    const listed = await run(['sessions', 'list', '-l', `batch=${label}`, '-q']);
    const after = await requestCount(t.emu);
    const r = await run(['sessions', 'archive', '-', '--concurrency', '2'], { stdin: listed.stdout });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: archive 2 sessions: pass --yes to confirm .*nothing was sent\n$/);
    expect(await requestCount(t.emu)).toBe(after);
    expect(after).toBeGreaterThan(before);
  });

  it('asks on a terminal with the count and the first rows; y archives them, anything else sends nothing', async () => {
    const { label, ids } = await batch(2);
    for (const answer of ['n', '', 'sure']) {
      const before = await writes();
      const no = await run(['sessions', 'archive', '-l', `batch=${label}`], { stdinTTY: true, stdin: `${answer}\n` });
      expect(no.code, answer).toBe(2);
      expect(no.stderr).toContain(`  ${ids[0]}  idle  ${label}-0`);
      expect(no.stderr).toContain('Archive 2 sessions? [y/N]');
      // The selection was listed (reads); no write went out.
      expect(await writes(), answer).toBe(before);
    }
    for (const id of ids) expect((await getSession(t.emu, id)).archived_at).toBeNull();
    const yes = await run(['sessions', 'archive', '-l', `batch=${label}`, '-o', 'ndjson'], { stdinTTY: true, stdin: 'y\n' });
    expect(yes.code).toBe(0);
    expect(ndjson(yes.stdout)).toHaveLength(2);
    for (const id of ids) expect((await getSession(t.emu, id)).archived_at).not.toBeNull();
  });

  it('--dry-run prints the selection and sends no write', async () => {
    const { label, ids } = await batch(2);
    const before = await writes();
    const r = await run(['sessions', 'delete', '-l', `batch=${label}`, '--dry-run', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual([...ids].sort());
    expect(r.stderr).toBe('dry run: would delete 2 sessions; nothing was sent\n');
    expect(await writes()).toBe(before);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/sessions/${id}`)).status).toBe(200);
  });

  it('reads IDs from standard input, one per line or NDJSON objects with id, and a re-run converges as unchanged', async () => {
    const { ids } = await batch(3);
    const stdin = `${ids[0]}\n{"id":"${ids[1]}","status":"idle"}\n\n${ids[2]}\n`;
    const first = await run(['sessions', 'archive', '-', '--yes', '-o', 'ndjson'], { stdin });
    expect(first.code).toBe(0);
    expect(ndjson(first.stdout).map((x) => x.id)).toEqual(ids);
    const again = await run(['sessions', 'archive', '-', '--yes', '-o', 'ndjson'], { stdin });
    expect(again.code).toBe(0);
    expect(ndjson(again.stdout).every((x) => x.ok && x.unchanged)).toBe(true);
    expect(again.stderr).toBe('archived 0, unchanged 3, failed 0\n');
  });

  it('every item is attempted; exit is the code of the first failed item in input order; --ignore-not-found makes a 404 a success', async () => {
    const { ids } = await batch(2);
    const r = await run(['sessions', 'delete', ids[0], 'sesn_missing_1', ids[1], 'sesn_missing_2', '--yes', '-o', 'json']);
    expect(r.code).toBe(6);
    const results = JSON.parse(r.stdout);
    expect(results.map((x: any) => [x.id, x.ok])).toEqual([
      [ids[0], true],
      ['sesn_missing_1', false],
      [ids[1], true],
      ['sesn_missing_2', false],
    ]);
    expect(results[1].error).toMatchObject({ type: 'resource_not_found_error' });
    expect(r.stderr).toBe('deleted 2, unchanged 0, failed 2\n');
    const ignored = await run(['sessions', 'delete', 'sesn_missing_1', ids[0], '--yes', '--ignore-not-found', '-o', 'ndjson']);
    expect(ignored.code).toBe(0);
    expect(ndjson(ignored.stdout)).toEqual([
      { id: 'sesn_missing_1', action: 'delete', ok: true, unchanged: true },
      { id: ids[0], action: 'delete', ok: true, unchanged: true },
    ]);
  });

  it('--fail-fast stops issuing writes after the first failure', async () => {
    const { ids } = await batch(3);
    const r = await run(['sessions', 'delete', 'sesn_missing_3', ...ids, '--yes', '--fail-fast', '--concurrency', '1', '-o', 'ndjson']);
    expect(r.code).toBe(6);
    expect(ndjson(r.stdout)).toEqual([expect.objectContaining({ id: 'sesn_missing_3', ok: false })]);
    expect(r.stderr).toBe('deleted 0, unchanged 0, failed 1, not attempted 3\n');
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/sessions/${id}`)).status).toBe(200);
  });

  it('R-SESS-27 R-SESS-29 interrupt sends the epoch read in the same pass and continue prints the epoch the service returned', async () => {
    const { label, ids } = await batch(2);
    const i = await run(['sessions', 'interrupt', '-l', `batch=${label}`, '--yes', '-o', 'ndjson']);
    expect(i.code).toBe(0);
    for (const x of ndjson(i.stdout)) expect(x).toMatchObject({ action: 'interrupt', ok: true, control_epoch: expect.stringMatching(/^\d+$/) });
    for (const id of ids) await waitSession(t.emu, id, (s) => s.interrupted && !s.stopping, 'interrupted');
    const acks = (await call(t.emu, 'GET', `/v1/sessions/${ids[0]}/events?page_size=100`)).body.items.filter((e: any) => e.type === 'user.interrupt');
    expect(acks[0].data).toEqual({ expected_control_epoch: '0' });
    const c = await run(['sessions', 'continue', ...ids, '--yes', '-o', 'ndjson']);
    expect(c.code).toBe(0);
    const held = await getSession(t.emu, ids[0]);
    const printed = ndjson(c.stdout)[0];
    expect(printed.control_epoch).toMatch(/^\d+$/);
    // The completed start moves the session past the epoch Continue returned; the result keeps the returned one.
    await waitSession(t.emu, ids[0], (s) => !s.continue_pending, 'started');
    expect(BigInt((await getSession(t.emu, ids[0])).control_epoch)).toBeGreaterThan(BigInt(printed.control_epoch));
    expect(held).toBeDefined();
  });

  it('R-SESS-29 a session that moved on between the selection and the write is reported as a 409 failure, not retried', async () => {
    const { label, ids } = await batch(2);
    const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
    stdin.isTTY = true;
    const stdout = new Capture();
    const stderr = new Capture();
    const env = { SVC_CONFIG_DIR: tempConfigDir(), ...emuEnv(t.emu) };
    const done = main(['sessions', 'interrupt', '-l', `batch=${label}`, '-o', 'ndjson'], { stdin, stdout, stderr, env, cwd: process.cwd() });
    await waitUntil(() => stderr.text.includes('[y/N]'), 'the consent prompt');
    // While the prompt waits, the first session is interrupted and continued elsewhere: its listed epoch is stale.
    await call(t.emu, 'POST', `/v1/sessions/${ids[0]}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
    await waitSession(t.emu, ids[0], (s) => s.interrupted && !s.stopping, 'interrupted');
    await call(t.emu, 'POST', `/v1/sessions/${ids[0]}/continue`);
    await waitSession(t.emu, ids[0], (s) => !s.continue_pending && !s.interrupted, 'continued');
    const epoch = (await getSession(t.emu, ids[0])).control_epoch;
    stdin.end('y\n');
    expect(await done).toBe(7);
    const results = ndjson(stdout.text);
    expect(results.find((x) => x.id === ids[0])).toMatchObject({ ok: false, error: { type: 'conflict_error' } });
    expect(results.find((x) => x.id === ids[1])).toMatchObject({ ok: true });
    expect((await getSession(t.emu, ids[0])).control_epoch).toBe(epoch);
    expect(stderr.text).toMatch(/interrupted 1, unchanged 0, failed 1\n$/);
  });

  it('a 429 pauses every worker for its Retry-After, not just the one told', async () => {
    const { label, ids } = await batch(12);
    const concurrency = 4;
    const sleeps: number[] = [];
    let first: { waiters: number; during: number } | undefined;
    await call(t.emu, 'POST', '/_emulator/faults', { body: { rate_limit_every: 6, retry_after: 1 } });
    try {
      const r = await run(['sessions', 'archive', '-l', `batch=${label}`, '--yes', '--concurrency', String(concurrency), '-o', 'ndjson'], {
        sleep: (ms) => {
          sleeps.push(ms);
          if (first) return Promise.resolve();
          // The first pause stands in for the Retry-After wait: it ends once every worker waits on it (and the pause's
          // own clean-up), or once more requests came than were in flight at the 429 (workers it did not hold).
          const seen = { waiters: 0, during: 0 };
          first = seen;
          const pause = new Watched<void>((resolve) => {
            void requestCount(t.emu)
              .then((before) =>
                waitUntil(async () => {
                  seen.waiters = pause.waiters;
                  seen.during = (await requestCount(t.emu)) - before;
                  return seen.waiters > concurrency || seen.during > concurrency - 1;
                }, 'every worker to wait on the pause'),
              )
              // Timed out: the assertions below say what was seen.
              .catch(() => undefined)
              .then(() => resolve());
          });
          return pause;
        },
      });
      expect(r.code).toBe(0);
      expect(ndjson(r.stdout).filter((x) => x.ok)).toHaveLength(ids.length);
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
    expect(sleeps.every((ms) => ms >= 1000)).toBe(true);
    // Every worker waited, and at most the requests already in flight when the 429 came (concurrency - 1) landed.
    expect(first).toBeDefined();
    expect(first!.waiters).toBe(concurrency + 1);
    expect(first!.during).toBeLessThanOrEqual(concurrency - 1);
  });

  it('Ctrl-C mid-bulk stops issuing writes, reports those in flight and exits 130: every archived session is in the report', async () => {
    const { label, ids } = await batch(8);
    const ctrlC = new AbortController();
    await call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 150 } });
    try {
      const archived = async () => (await Promise.all(ids.map((id) => getSession(t.emu, id)))).filter((s) => s.archived_at).map((s) => s.id);
      const pending = run(['sessions', 'archive', '-l', `batch=${label}`, '--yes', '--concurrency', '2', '-o', 'ndjson'], { signal: ctrlC.signal });
      await waitUntil(async () => (await archived()).length > 0, 'a first archive', 20_000);
      ctrlC.abort();
      const r = await pending;
      expect(r.code).toBe(130);
      const reported = ndjson(r.stdout);
      expect(reported.length).toBeLessThan(ids.length);
      expect(reported.every((x) => x.ok)).toBe(true);
      expect(reported.map((x) => x.id).sort()).toEqual((await archived()).sort());
      expect(r.stderr).toMatch(/^archived \d+, unchanged 0, failed 0, not attempted \d+\n/);
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
  });

  it('no IDs and no selector is exit 2 before any request; a selection matching nothing is exit 0 with "nothing matched"', async () => {
    const before = await requestCount(t.emu);
    const none = await run(['sessions', 'archive', '--yes']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: give session IDs/);
    expect(await requestCount(t.emu)).toBe(before);
    const empty = await run(['sessions', 'archive', '-l', 'batch=nobody', '--yes']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toBe('nothing matched\n');
  });

  it('on a terminal the results are a table, a failure with its message', async () => {
    const { ids } = await batch(1);
    const r = await run(['sessions', 'archive', ids[0], 'sesn_missing_tty', '--yes'], { stdoutTTY: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(6);
    const [header, first, second] = r.stdout.split('\n');
    expect(header).toMatch(/^ID\s+ACTION\s+RESULT\s+EPOCH\s+ERROR$/);
    expect(first).toMatch(new RegExp(`^${ids[0]}\\s+archive\\s+ok$`));
    expect(second).toMatch(/^sesn_missing_tty\s+archive\s+failed\s+\S+/);
  });

  it('a single ID keeps the single-session output (the archived object)', async () => {
    const { ids } = await batch(1);
    const r = await run(['sessions', 'archive', ids[0]]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: ids[0], status: 'terminated' });
  });
});
