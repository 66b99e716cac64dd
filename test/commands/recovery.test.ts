// Rules proved here: R-ERR-16, R-ERR-18, R-ERR-23, R-ERR-24, R-EVT-22, R-VERS-7, R-VERS-8, R-PLUG-10, R-SESS-10
// — what the user is told to do next, and what the CLI tolerates in responses it does not know.
import { createServer, request, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, history } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);

async function agent(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'recovering', model: 'scripted-1' } })).body.id;
}
const hintOf = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('hint: '));

describe('recovery hints on a terminal', () => {
  it('R-ERR-16 a 403 suggests checking permissions and credential scope, a 404 the ID; never with -o json', async () => {
    const envKey = t.emu.credentials.issue({ kind: 'environment', environmentId: 'env_x' });
    const denied = await svc(['agents', 'list'], { env: emuEnv(t.emu, { SVC_API_KEY: envKey }), stderrTTY: true });
    expect(denied.code).toBe(5);
    expect(hintOf(denied.stderr)).toBe('hint: Check permissions and credential scope.');
    const missing = await svc(['agents', 'get', 'agent_nope'], { env: env(), stderrTTY: true });
    expect(hintOf(missing.stderr)).toMatch(/^hint: Check the ID and its visibility[.;]/);
    const json = await svc(['agents', 'get', 'agent_nope', '-o', 'json'], { env: env(), stderrTTY: true });
    expect(json.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('R-ERR-18 R-ERR-16 a server_error shows its request ID and says to confirm the write before retrying', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'five-hundred', model: 'm' } })).body.id;
    await call(t.emu, 'POST', '/_emulator/faults', { body: { reject_write_every: 1 } });
    const r = await svc(['agents', 'update', id, '--system', 'x'], { env: env(), stderrTTY: true });
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/^error: .*\(type=server_error status=500 request_id=req_\S+\)$/m);
    expect(hintOf(r.stderr)).toBe('hint: Note the request ID; confirm the outcome of writes before retrying.');
  });

  it('R-ERR-24 a session.error names its error_type and suggests the recovery of the spec table', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/error model_unavailable'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/^error: the session turn ended in session.error: model_unavailable: /m);
    expect(hintOf(r.stderr)).toBe('hint: Choose an available model or create a new session.');
  });

  it('R-EVT-22 a session.error rate_limited is a session failure (exit 11), not the HTTP rate limit (exit 8)', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/error rate_limited'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(11);
    expect(r.stderr).not.toContain('type=');
    expect(hintOf(r.stderr)).toBe('hint: Wait and retry.');
  });

  it('R-ERR-23 an unknown data.error_type is reported as it comes, exit 11, without a made-up hint', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/error brand_new_failure'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/^error: the session turn ended in session.error: brand_new_failure: unknown error type; /m);
    expect(hintOf(r.stderr)).toBeUndefined();
  });
});

describe('what the service may add', () => {
  it('R-VERS-7 R-VERS-8 an unknown session status and unknown members are shown, never an error', async () => {
    const s = await createSession(t.emu);
    const rows = t.emu.collection<any>('sessions', 'sesn', 'session');
    rows.touch(rows.get(s.id), { status: 'hibernating', brand_new_member: { nested: [1, 2] } });
    try {
      const json = await svc(['sessions', 'get', s.id], { env: env() });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ id: s.id, status: 'hibernating', brand_new_member: { nested: [1, 2] } });
      const table = await svc(['sessions', 'list', '--all'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n').find((l) => l.startsWith(s.id))).toMatch(/\shibernating\s/);
    } finally {
      rows.touch(rows.get(s.id), { status: 'idle' });
    }
  });

  it('R-PLUG-10 plugins of scope org and user from the service are listed and read', async () => {
    const plugins = t.emu.collection<any>('plugins', 'plugin', 'plugin');
    const model = plugins.values().find((p) => p.scope === 'official');
    const { id: _id, ...base } = model;
    const org = plugins.insert({ ...base, name: 'org-wide', scope: 'org' });
    const user = plugins.insert({ ...base, name: 'mine', scope: 'user' });
    const got = await svc(['plugins', 'get', org.id], { env: env() });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: org.id, scope: 'org' });
    const table = await svc(['plugins', 'get', user.id], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\buser\b/);
  });
});

/** Forwards to the emulator, dropping `event_id` from the 202 of a send (a deployment without an input queue). */
async function withoutEventIds(target: string): Promise<{ url: string; server: Server; stripped: () => number }> {
  let stripped = 0;
  const server = createServer((req, res) => {
    const up = request(target + req.url, { method: req.method, headers: req.headers }, (ur) => {
      if (req.method === 'POST' && /\/events$/.test(req.url ?? '') && ur.statusCode === 202) {
        let text = '';
        ur.on('data', (c) => (text += c));
        ur.on('end', () => {
          const body = JSON.parse(text);
          if ('event_id' in body) stripped++;
          delete body.event_id;
          const { 'content-length': _, ...headers } = ur.headers;
          res.writeHead(202, headers).end(JSON.stringify(body));
        });
      } else {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      }
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, stripped: () => stripped };
}

describe('a 202 without event_id', () => {
  it('R-SESS-10 send and run accept it: the message is sent once and run prints its reply', async () => {
    const proxy = await withoutEventIds(t.emu.url);
    try {
      const s = await createSession(t.emu);
      const penv = { ...env(), SVC_BASE_URL: proxy.url };
      const sent = await svc(['sessions', 'send', s.id, '--text', '/echo first'], { env: penv });
      expect(sent.code).toBe(0);
      const r = await svc(['run', '--session', s.id, '--message', '/echo second'], { env: penv });
      expect([r.code, r.stdout]).toEqual([0, 'second\n']);
      expect(proxy.stripped()).toBe(2);
      const messages = (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'user.message');
      expect(messages.map((e) => e.data.content[0].text)).toEqual(['/echo first', '/echo second']);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  });
});
