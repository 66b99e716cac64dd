// svc sessions rerun: a new session per original replaying its user messages turn by turn, refused before anything
// is sent when it must be, and converging when run again (also after SIGKILL half way).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { useBundledSvc } from '../helpers/bundled';
import { getSession, history, send, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 2 });
const built = useBundledSvc();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

const writes = async (): Promise<number> => (await call(t.emu, 'GET', '/_emulator/stats')).body.writes ?? 0;
const texts = (h: any[]) => h.filter((e) => e.type === 'user.message' && !e.session_thread_id).map((e) => e.data.content.map((b: any) => b.text).join(''));
const failed = (s: any) => s.status === 'idle' && s.stop_reason?.type === 'error';

let agents = 0;
async function agent(): Promise<string> {
  const a = await call(t.emu, 'POST', '/v1/agents', { body: { name: `rerun-agent-${++agents}`, model: 'scripted-1' } });
  expect(a.status).toBe(201);
  return a.body.id;
}

/** `n` sessions labelled `batch=label`, each sent `turns` messages during a model outage, so each turn fails. */
async function outage(label: string, n: number, turns: number, agentId?: string): Promise<string[]> {
  const agent_id = agentId ?? (await agent());
  expect((await call(t.emu, 'POST', '/_emulator/faults', { body: { model_outage: 'engine_overloaded' } })).status).toBe(200);
  const ids: string[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id, title: `${label} ${i}`, metadata: { batch: label, n: String(i) } } });
      ids.push(s.body.id);
    }
    for (let turn = 1; turn <= turns; turn++) {
      for (const [i, sid] of ids.entries()) await send(t.emu, sid, `${label} task ${i} part ${turn}`);
      for (const sid of ids) await waitIdleEvents(t.emu, sid, turn);
    }
  } finally {
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
  }
  for (const sid of ids) expect(failed(await getSession(t.emu, sid))).toBe(true);
  return ids;
}

/** Every session whose metadata names `root` as `rerun_of`. */
async function attemptsOf(root: string): Promise<any[]> {
  const r = await call(t.emu, 'GET', '/v1/sessions?page_size=1000&include_archived=true');
  return r.body.items.filter((s: any) => s.metadata?.rerun_of === root);
}

describe('svc emulator outage', () => {
  it('fails the sessions it makes with the error type during a model outage that then ends; bad flags are exit 2', async () => {
    const r = await run(['emulator', 'outage', '--sessions', '3', '--error-type', 'model_unavailable', '-q']);
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(3);
    const e = JSON.parse((await run(['sessions', 'explain', ...ids, '-o', 'json'])).stdout);
    expect(e.groups.map((g: any) => [g.code, g.error_type, g.count])).toEqual([['session_error', 'model_unavailable', 3]]);
    // The outage is over: a new turn runs.
    expect((await call(t.emu, 'GET', '/_emulator/faults')).body.model_outage).toBeUndefined();
    expect((await run(['emulator', 'outage', '--sessions', '0'])).code).toBe(2);
    expect((await run(['emulator', 'outage', '--error-type', 'Bad Type'])).code).toBe(2);
  });
});

describe('svc sessions rerun', () => {
  it('one original: same agent, version, title and metadata plus rerun_of and attempt; its messages replayed in order; --wait ends idle', async () => {
    const [orig] = await outage('one', 1, 2);
    const r = await run(['sessions', 'rerun', orig, '--wait', '-o', 'json']);
    expect(r.stderr).toBe('rerun 1, unchanged 0, failed 0\n');
    expect(r.code).toBe(0);
    const [attempt] = await attemptsOf(orig);
    // One document: the results; the wait adds its exit code, not a second list.
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ id: orig, action: 'rerun', ok: true, session_id: attempt.id, attempt: 1, turns: '2/2', sent: 2 }),
    ]);
    const o = await getSession(t.emu, orig);
    expect(attempt).toMatchObject({
      agent_id: o.agent_id,
      agent_version: o.agent_version,
      title: o.title,
      metadata: { ...o.metadata, rerun_of: orig, attempt: '1' },
    });
    expect(attempt.status).toBe('idle');
    expect(texts(await history(t.emu, `/v1/sessions/${attempt.id}`))).toEqual(texts(await history(t.emu, `/v1/sessions/${orig}`)));
    // Each turn was sent once the one before settled: every message started a turn of its own.
    const h = await history(t.emu, `/v1/sessions/${attempt.id}`);
    expect(h.filter((e) => e.type === 'session.status' && e.data.status === 'idle' && e.data.stop_reason?.type === 'end_turn')).toHaveLength(2);

    // Run again: it converges on the same attempt, creating and sending nothing.
    const again = await run(['sessions', 'rerun', orig, '-o', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ id: orig, unchanged: true, session_id: attempt.id, sent: 0, created: false });
    expect(await attemptsOf(orig)).toHaveLength(1);

    // A rerun of the rerun is the chain's next attempt, under the same root: `list -l rerun_of=` finds both.
    expect((await run(['sessions', 'rerun', attempt.id])).code).toBe(0);
    const chain = await attemptsOf(orig);
    expect(chain.map((s) => s.metadata.attempt).sort()).toEqual(['1', '2']);
    const listed = await run(['sessions', 'list', '-l', `rerun_of=${orig}`, '-q']);
    expect(listed.stdout.trim().split('\n').sort()).toEqual(chain.map((s) => s.id).sort());
  });

  it('keeps the environment, vaults, file resources and overrides of the original', async () => {
    const fd = new FormData();
    fd.append('file', new Blob(['notes'], { type: 'text/plain' }), 'notes.txt');
    const res = new Response(fd);
    const file = await call(t.emu, 'POST', '/v1/files', {
      raw: Buffer.from(await res.arrayBuffer()),
      headers: { 'content-type': res.headers.get('content-type')! },
    });
    expect(file.status).toBe(201);
    const env = await call(t.emu, 'POST', '/v1/environments', { body: { name: `rerun-env-${Date.now()}`, config: { type: 'cloud' } } });
    const vault = await call(t.emu, 'POST', '/v1/vaults', { body: { name: `rerun-vault-${Date.now()}` } });
    const orig = await call(t.emu, 'POST', '/v1/sessions', {
      body: {
        agent_id: await agent(),
        environment_id: env.body.id,
        vault_ids: [vault.body.id],
        resources: [{ type: 'file', file_id: file.body.id }],
        agent_overrides: { system: 'Be brief.' },
        title: 'configured',
      },
    });
    expect(orig.status).toBe(201);
    await send(t.emu, orig.body.id, 'hello');
    await waitIdleEvents(t.emu, orig.body.id, 1);
    expect((await run(['sessions', 'rerun', orig.body.id])).code).toBe(0);
    const [a] = await attemptsOf(orig.body.id);
    expect(a).toMatchObject({ environment_id: env.body.id, vault_ids: [vault.body.id], title: 'configured', agent_overrides: { system: 'Be brief.' } });
    expect(a.resources.map((r: any) => [r.type, r.file_id])).toEqual([['file', file.body.id]]);
  });

  it('--turns N replays the first N; --latest runs the current agent version, --agent-version N that one', async () => {
    const agentId = await agent();
    const [orig] = await outage('turns', 1, 3, agentId);
    expect((await call(t.emu, 'PATCH', `/v1/agents/${agentId}`, { body: { system: 'changed' } })).status).toBe(200);
    expect((await run(['sessions', 'rerun', orig, '--turns', '1', '--latest'])).code).toBe(0);
    const [a] = await attemptsOf(orig);
    expect(a.agent_version).toBe(2);
    await waitSession(t.emu, a.id, (s) => s.status === 'idle');
    expect(texts(await history(t.emu, `/v1/sessions/${a.id}`))).toEqual(['turns task 0 part 1']);
    const [other] = await outage('pinned', 1, 1, agentId);
    expect((await run(['sessions', 'rerun', other, '--agent-version', '1'])).code).toBe(0);
    expect((await attemptsOf(other))[0].agent_version).toBe(1);
  });

  it('dry run: what would be rerun (attempt, turns), nothing sent; many need --yes', async () => {
    const ids = await outage('dry', 3, 1);
    const before = await writes();
    const dry = await run(['sessions', 'rerun', '-l', 'batch=dry', '--status', 'failed', '--error-type', 'engine_overloaded', '--dry-run', '-o', 'json']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('dry run: would rerun 3 sessions; nothing was sent\n');
    expect(JSON.parse(dry.stdout).map((x: any) => [x.id, x.attempt, x.turns, x.dry_run])).toEqual(ids.reverse().map((id) => [id, 1, '1', true]));
    const refused = await run(['sessions', 'rerun', '-l', 'batch=dry']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: rerun 3 sessions: pass --yes to confirm/);
    expect(await writes()).toBe(before);
  });

  it('refused with exit 2 before anything is sent: a running original (unless --force), one with no user message, more than --max without --yes', async () => {
    const agentId = await agent();
    const busy = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId, metadata: { batch: 'refused' } } })).body.id;
    await send(t.emu, busy, '/slow 400');
    await waitSession(t.emu, busy, (s) => s.status === 'running');
    const empty = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId } })).body.id;
    const many = await outage('max', 3, 1);
    const before = await writes();
    const running = await run(['sessions', 'rerun', busy]);
    expect(running.code).toBe(2);
    expect(running.stderr).toBe(
      `error: session ${busy} is running: interrupt it first (svc sessions interrupt ${busy} --wait), or pass --force to rerun it from its history so far; nothing was sent\n`,
    );
    const none = await run(['sessions', 'rerun', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`error: session ${empty} has no user message to replay; nothing was sent\n`);
    const max = await run(['sessions', 'rerun', ...many, '--max', '2']);
    expect(max.code).toBe(2);
    expect(max.stderr).toBe('error: 3 sessions selected, more than --max 2: raise --max; nothing was sent\n');
    expect((await run(['sessions', 'rerun', ...many, '--max', '2', '--yes'])).code).toBe(2);
    expect((await run(['sessions', 'rerun', busy, '--latest', '--agent-version', '2'])).code).toBe(2);
    expect((await run(['sessions', 'rerun', busy, '--timeout', '1m'])).code).toBe(2);
    expect((await run(['sessions', 'rerun', busy, '--turns', '0'])).code).toBe(2);
    expect(await writes()).toBe(before);
    // --force reruns it from its history so far.
    const forced = await run(['sessions', 'rerun', busy, '--force']);
    expect(forced.code).toBe(0);
    expect(await attemptsOf(busy)).toHaveLength(1);
  });

  it('R-IDEM-14 a 500 after each second write (applied) is retried with the same key: every original rerun once, each message once', async () => {
    const ids = await outage('flaky', 3, 2);
    expect((await call(t.emu, 'POST', '/_emulator/faults', { body: { fail_write_every: 2 } })).status).toBe(200);
    try {
      const r = await run(['sessions', 'rerun', ...ids, '--yes'], { sleep: async () => {} });
      expect(r.stderr).toBe('rerun 3, unchanged 0, failed 0\n');
      expect(r.code).toBe(0);
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.write_failures).toBeGreaterThan(0);
    for (const orig of ids) {
      const [a, ...more] = await attemptsOf(orig);
      expect(more).toEqual([]);
      await waitIdleEvents(t.emu, a.id, 2);
      expect(texts(await history(t.emu, `/v1/sessions/${a.id}`))).toEqual(texts(await history(t.emu, `/v1/sessions/${orig}`)));
    }
  });

  it('a rerun that waits on a human stops there and says so: exit 13 under --wait', async () => {
    const agentId = await agent();
    const orig = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId } })).body.id;
    await send(t.emu, orig, '/confirm bash {"command":"ls"}');
    const s = await waitSession(t.emu, orig, (x) => x.requires_action === true);
    await call(t.emu, 'POST', `/v1/sessions/${orig}/events`, {
      body: { events: [{ type: 'user.tool_confirmation', data: { event_id: s.stop_reason.event_ids[0], result: 'allow' } }] },
    });
    await waitSession(t.emu, orig, (x) => x.status === 'idle' && x.requires_action === false);
    await send(t.emu, orig, 'and then this');
    await waitUntil(
      async () => texts(await history(t.emu, `/v1/sessions/${orig}`)).length === 2 && (await getSession(t.emu, orig)).status === 'idle',
      'the second turn',
    );
    const r = await run(['sessions', 'rerun', orig, '--wait']);
    expect(r.code).toBe(13);
    const [a] = await attemptsOf(orig);
    expect(r.stderr).toContain(`rerun of ${orig} (session ${a.id}) stopped at turn 1/2: session ${a.id} is waiting for a reply`);
    // The confirmation was not replayed, nor the message after it.
    const h = await history(t.emu, `/v1/sessions/${a.id}`);
    expect(h.filter((e) => e.type === 'user.tool_confirmation')).toEqual([]);
    expect(texts(h)).toEqual(['/confirm bash {"command":"ls"}']);
  });

  it('R-IDEM-12 R-IDEM-15 converges after SIGKILL: killed after 20 of 60 sessions, run again: 60 new sessions, none twice, each with its messages once', async () => {
    const ids = await outage('killed', 60, 2);
    const args = ['sessions', 'rerun', '-l', 'batch=killed', '--status', 'failed', '--error-type', 'engine_overloaded', '--yes', '--concurrency', '4'];
    const child = spawn(process.execPath, [built.bin, ...args], {
      env: { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<{ signal: NodeJS.Signals | null }>((r) => child.once('exit', (_code, signal) => r({ signal })));
    const made = async () => {
      const r = await call(t.emu, 'GET', '/v1/sessions?page_size=1000');
      return r.body.items.filter((s: any) => s.metadata?.batch === 'killed' && s.metadata?.rerun_of).length;
    };
    await waitUntil(async () => (await made()) >= 20, '20 reruns', 60_000);
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    const atKill = await made();
    expect(atKill).toBeGreaterThanOrEqual(20);
    expect(atKill).toBeLessThan(60);

    const r = await run(args);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^rerun \d+, unchanged \d+, failed 0\n$/);
    const reruns = (await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items.filter(
      (s: any) => s.metadata?.batch === 'killed' && s.metadata?.rerun_of,
    );
    expect(reruns).toHaveLength(60);
    expect(new Set(reruns.map((s: any) => s.metadata.rerun_of))).toEqual(new Set(ids));
    for (const s of reruns) {
      await waitSession(t.emu, s.id, (x) => x.status === 'idle');
      await waitIdleEvents(t.emu, s.id, 2);
      expect(texts(await history(t.emu, `/v1/sessions/${s.id}`))).toEqual(texts(await history(t.emu, `/v1/sessions/${s.metadata.rerun_of}`)));
    }
  }, 120_000);
});
