// Rules proved here: R-WORK-10, R-WORK-33 — the real worker against the emulator.
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSecret } from '../../src/api/work';
import { svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';
import { closeServers, listen, rewritingProxy, rowOf, selfHostedEnvironment, toolResults, toolSession, waitRow, workdir } from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });

function worker(envKey: string, baseUrl: string, args: string[]) {
  const env = { SVC_BASE_URL: baseUrl, SVC_ENVIRONMENT_KEY: envKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
  return svc(['worker', 'run', ...args], { env });
}

afterEach(closeServers);

/** A pass-through in front of the emulator that adds `extra` members to the secret bundle of every claimed row. */
async function bundleRewriter(target: string, extra: Record<string, unknown>): Promise<{ url: string; rewritten: string[] }> {
  const rewritten: string[] = [];
  const url = await rewritingProxy(target, {
    json: ({ url }, status, body) => {
      if (!url.includes('/work/poll')) return undefined;
      for (const item of body.items ?? []) {
        const bundle = JSON.parse(Buffer.from(item.secret, 'base64url').toString('utf8'));
        item.secret = Buffer.from(JSON.stringify({ ...extra, ...bundle, ...extra, sessions_token: bundle.sessions_token })).toString('base64url');
        rewritten.push(item.session_id);
      }
      return { status, text: JSON.stringify(body) };
    },
  });
  return { url, rewritten };
}

describe('svc worker run: the secret bundle and the lease', () => {
  it('R-WORK-10 decodeSecret keeps only sessions_token from a bundle with other members', () => {
    const secret = Buffer.from(JSON.stringify({ sessions_token: 'tok', api_key: 'k', base_url: 'http://x', generation: 9, reserved: { a: 1 } })).toString(
      'base64url',
    );
    expect(decodeSecret(secret)).toEqual({ sessions_token: 'tok' });
  });

  it('R-WORK-10 extra bundle members (a credential, a URL, a generation, a session) are never consumed', async () => {
    const decoyHits: string[] = [];
    const decoy = await listen((req, res) => {
      decoyHits.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    const env = await selfHostedEnvironment(t.emu);
    const other = (await createSession(t.emu)).id;
    // Consumed, any of these would break the lease: the API key is refused on lease paths (403), generation
    // 99 is stale (412), the decoy URL answers 500, and the other session's rows are not this token's.
    const extra = { api_key: t.emu.apiKey, token: t.emu.apiKey, base_url: decoy, url: decoy, generation: 99, session_id: other, work_id: 'work_decoy' };
    const proxy = await bundleRewriter(t.emu.url, extra);
    const running = worker(env.key, proxy.url, ['--environment', env.id, '--workdir', workdir(), '--once']);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo served"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map((e) => e.data.content[0].text)).toEqual(['served\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    expect(proxy.rewritten).toEqual([sid]);
    expect(decoyHits).toEqual([]);
    expect(await toolResults(t.emu, other)).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(t.emu.apiKey);
  });

  it('R-WORK-33 on a 409 from the idle stop the worker keeps the lease, heartbeats on, and completes the same row later', async () => {
    const sessions = t.emu.services.sessions!;
    const realBusy = sessions.isBusy;
    let forceBusy = true;
    const stopsWhileBusy: string[] = [];
    // The row's session reads as busy (new input present) while `forceBusy` holds: the idle stop gets 409.
    sessions.isBusy = (id) => {
      if (forceBusy) stopsWhileBusy.push(id);
      return forceBusy || realBusy(id);
    };
    try {
      const env = await selfHostedEnvironment(t.emu);
      const running = worker(env.key, t.emu.url, ['--environment', env.id, '--workdir', workdir(), '--once', '--log-format', 'json']);
      const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo one"}');
      await waitUntil(() => stopsWhileBusy.includes(sid), 'the idle stop to be refused');
      const before = await rowOf(t.emu, env.id, sid);
      expect(before).toMatchObject({ status: 'active', generation: 1 });
      // Still served: a heartbeat lands after the 409.
      await waitRow(t.emu, env.id, sid, (w) => w.latest_heartbeat_at > before.latest_heartbeat_at, 'a heartbeat after the 409');
      forceBusy = false;
      await send(t.emu, sid, '/tool bash {"command":"echo two"}');
      const r = await running;
      expect(r.code).toBe(0);
      expect((await toolResults(t.emu, sid)).map((e) => e.data.content[0].text)).toEqual(['one\n', 'two\n']);
      expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
      const msgs = r.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).msg);
      expect(msgs.filter((m) => m === 'row claimed')).toHaveLength(1);
      expect(msgs.indexOf('session busy; keeping the lease')).toBeGreaterThan(-1);
      expect(msgs.indexOf('session busy; keeping the lease')).toBeLessThan(msgs.indexOf('row completed'));
    } finally {
      sessions.isBusy = realBusy;
    }
  });
});
