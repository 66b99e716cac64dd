// The worker against the shapes a real service may answer instead of ours (docs/service.md: shapes to tolerate; issue 13).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';
import { getSession, send, waitUntil } from '../helpers/sse';
import { readPid } from '../helpers/pid-file';
import {
  closeServers,
  expectNoSecrets,
  gone,
  recordSessionTokens,
  resultText,
  rewritingProxy,
  rowOf,
  selfHostedEnvironment,
  toolResults,
  toolSession,
  waitRow,
  workdir,
} from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
afterEach(closeServers);

function worker(envKey: string, baseUrl: string, args: string[], signal?: AbortSignal) {
  const env = { SVC_BASE_URL: baseUrl, SVC_ENVIRONMENT_KEY: envKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
  return svc(['worker', 'run', ...args], { env, signal });
}

/** The heartbeat answer of the public API this spec resembles, instead of the WorkItem. */
const leaseAnswer = (extended: boolean, state: string) =>
  JSON.stringify({ lease_extended: extended, ttl_seconds: 1.5, state, last_heartbeat: new Date().toISOString() });

/**
 * The real service's spellings of our events: `session.status_<status>`, thread events naming the thread by
 * `session_thread_id` with `agent_name`, and the model's own steps reported as MCP tool calls.
 */
function realEventShapes(ev: any): any {
  const thread = { session_thread_id: 'sthr_coordinator', agent_name: 'coordinator' };
  if (ev.type === 'session.status') return { ...ev, ...thread, type: `session.status_${ev.data.status}` };
  if (ev.type === 'agent.tool_use') return { ...ev, ...thread };
  if (ev.type === 'agent.model_started') return { ...ev, ...thread, type: 'agent.mcp_tool_use', data: { name: 'lookup', input: {}, mcp_server_name: 'docs' } };
  if (ev.type === 'agent.tool_started') return { ...ev, ...thread, type: 'agent.mcp_tool_result', data: { event_id: ev.id, content: [] } };
  return ev;
}

describe('svc worker run: shapes a real service may answer', () => {
  it('serves a row when polls answer 204, null, an empty body or one bare row, heartbeats answer {lease_extended}, and events use other spellings', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const polls: string[] = [];
    const beats: string[] = [];
    const proxy = await rewritingProxy(t.emu.url, {
      // Empty polls answer at once, so the worker meets each empty spelling quickly.
      url: (url) => url.replace(/block_ms=\d+/, 'block_ms=0'),
      json: ({ url }, status, body) => {
        if (url.includes('/work/poll') && status === 200) {
          const row = body.items[0];
          polls.push(row ? 'row' : 'none');
          // The empty queue in each of its spellings, in turn; a claimed row as the bare row.
          if (row) return { status: 200, text: JSON.stringify(row) };
          return [
            { status: 204, text: '' },
            { status: 200, text: 'null' },
            { status: 200, text: '' },
          ][polls.length % 3];
        }
        if (url.includes('/heartbeat') && status === 200) {
          beats.push(body.status);
          return { status: 200, text: leaseAnswer(true, body.status) };
        }
        return undefined;
      },
      event: realEventShapes,
    });
    const running = worker(env.key, proxy, ['--environment', env.id, '--workdir', workdir(), '--once', '--log-format', 'json']);
    await waitUntil(() => polls.length >= 3, 'three empty polls');
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo served"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect(polls.filter((p) => p === 'row')).toHaveLength(1);
    expect(beats.length).toBeGreaterThan(0);
    // The MCP call was left to the platform: the one result answers the sandbox call.
    const results = await toolResults(t.emu, sid);
    expect(results.map(resultText)).toEqual(['served\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    const msgs = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(msgs.filter((l) => l.level !== 'info')).toEqual([]);
    expect(msgs.map((l) => l.msg)).toEqual(expect.arrayContaining(['tool result written', 'session idle; completing the row', 'row completed']));
  }, 20_000);

  it('abandons the row when a heartbeat answers lease_extended: false (state canceled): the tool is killed and nothing is written', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    let refuse = false;
    const proxy = await rewritingProxy(t.emu.url, {
      json: ({ url }, status) => (url.includes('/heartbeat') && status === 200 && refuse ? { status: 200, text: leaseAnswer(false, 'canceled') } : undefined),
    });
    const ac = new AbortController();
    const running = worker(env.key, proxy, ['--environment', env.id, '--workdir', dir, '--heartbeat-interval', '0.2'], ac.signal);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo $$ > tool.pid; exec sleep 30"}');
    const pid = await waitUntil(() => readPid(join(dir, 'tool.pid')), 'the tool to start');
    await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    refuse = true;
    await waitUntil(() => gone(pid), 'the tool to be killed');
    ac.abort();
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/lease lost; abandoning the row .*reason="heartbeat: the service did not extend the lease"/);
    expect(await toolResults(t.emu, sid)).toEqual([]);
  }, 20_000);
});

describe('svc worker run: errors that retrying cannot fix', () => {
  it('a key holding characters that cannot go in a header exits 4 at once, with no request and no retry', async () => {
    const before = await requestCount(t.emu);
    const r = await worker('ek_pasted\u2026key', t.emu.url, ['--environment', 'env_1', '--workdir', workdir()]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*malformed/)]);
    expect(r.stderr).not.toMatch(/cannot reach|UND_ERR/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('a key the service refuses (401) ends the worker with exit 4 instead of polling on', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const r = await worker('ek_never_issued', t.emu.url, ['--environment', env.id, '--workdir', workdir()]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .*status=401/m);
    expect(r.stderr).not.toMatch(/backing off/);
  });

  it('a key for another environment (403) ends the worker with exit 5', async () => {
    const mine = await selfHostedEnvironment(t.emu);
    const other = await selfHostedEnvironment(t.emu);
    const r = await worker(mine.key, t.emu.url, ['--environment', other.id, '--workdir', workdir()]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /error: the environment work key from SVC_ENVIRONMENT_KEY may not serve environment .*status=403\): set SVC_ENVIRONMENT_KEY to a work key of this environment\n$/,
    );
    expect(r.stderr).not.toMatch(/backing off/);
    expectNoSecrets(r.stderr, [mine.key]);
  });
});

describe('svc worker run --max-idle', () => {
  it('keeps an idle row for a follow-up message, served under the same claim, then completes it', async () => {
    recordSessionTokens(t.emu);
    const env = await selfHostedEnvironment(t.emu);
    const running = worker(env.key, t.emu.url, ['--environment', env.id, '--workdir', workdir(), '--once', '--max-idle', '3s', '--log-format', 'json']);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo one"}');
    await waitUntil(async () => (await toolResults(t.emu, sid)).length === 1, 'the first call to be answered');
    await waitUntil(
      async () => (await rowOf(t.emu, env.id, sid)).status === 'active' && (await getSession(t.emu, sid)).status === 'idle',
      'the session to be idle with the row held',
    );
    await send(t.emu, sid, '/tool bash {"command":"echo two"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual(['one\n', 'two\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    const msgs = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg);
    expect(msgs.filter((m) => m === 'row claimed')).toHaveLength(1);
    expect(msgs).toContain('session idle; keeping the row');
  }, 20_000);
});
