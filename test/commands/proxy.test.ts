// Corporate networks (docs/decisions/network.md): svc's commands through a real forward proxy (proxy-chain) to the
// emulator, over HTTP and over HTTPS with a private CA; what the proxy records proves the request went through it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { deadPort, startProxy, type Proxy } from '../helpers/proxy';
import { createSession, send, waitIdleEvents } from '../helpers/sse';
import { TEST_CA_FILE, tlsFront } from '../helpers/tls-front';

const t = useEmulator({ modelStepMs: 1 });
const fast = { sleep: async () => {} };
const started: Proxy[] = [];
let agentId = '';

async function proxy(o: Parameters<typeof startProxy>[0] = {}): Promise<Proxy> {
  const p = await startProxy(o);
  started.push(p);
  return p;
}

/** The emulator's host:port, as a proxy is asked to reach it. */
const target = (url: string) => new URL(url).host;

beforeAll(async () => {
  const r = await svc(['agents', 'create', '--name', 'via-proxy', '--model', 'm-1', '-o', 'id'], { env: emuEnv(t.emu) });
  agentId = r.stdout.trim();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.close()));
});

describe('svc behind a forward proxy', () => {
  it('HTTP_PROXY: a request to the service goes through the proxy, loopback included', async () => {
    const p = await proxy();
    const r = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(agentId);
    expect(p.seen).toEqual([`CONNECT ${target(t.emu.url)}`]);
  });

  it('the lower-case variable wins over the upper-case one, as curl reads them; no proxy variable: no proxy', async () => {
    const used = await proxy();
    const ignored = await proxy();
    const r = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { http_proxy: used.url, HTTP_PROXY: ignored.url }) });
    expect(r.code).toBe(0);
    expect(used.seen).toHaveLength(1);
    expect(ignored.seen).toEqual([]);
    // HTTPS_PROXY is for https: URLs only: an http: base URL goes direct.
    const direct = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTPS_PROXY: ignored.url }) });
    expect(direct.code).toBe(0);
    expect(ignored.seen).toEqual([]);
  });

  it('NO_PROXY names the hosts reached directly', async () => {
    const p = await proxy();
    for (const noProxy of ['127.0.0.1', `localhost,127.0.0.1:${new URL(t.emu.url).port}`, '*']) {
      const r = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url, NO_PROXY: noProxy }) });
      expect(r.code, noProxy).toBe(0);
    }
    // Another port of the host is not named: proxied.
    await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url, no_proxy: '127.0.0.1:1' }) });
    expect(p.seen).toEqual([`CONNECT ${target(t.emu.url)}`]);
  });

  it('a proxy that asks for credentials: user:password in its URL are sent; wrong ones are exit 4 in one line, masked', async () => {
    const p = await proxy({ auth: { user: 'ops', password: 'hunter22' } });
    const ok = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url.replace('//', '//ops:hunter22@') }) });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const wrong = p.url.replace('//', '//ops:wrong-pass@');
    const r = await svc(['agents', 'get', agentId], { env: emuEnv(t.emu, { HTTP_PROXY: wrong }), ...fast });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `error: cannot reach ${t.emu.url}: the proxy ${p.url.replace('//', '//ops:***@')} (HTTP_PROXY) asked for credentials (407): put user:password in its URL\n`,
    );
    // Asked once: a proxy that wants credentials is not asked again with the same ones.
    expect(p.seen).toHaveLength(2);
    const none = await svc(['agents', 'get', agentId, '-o', 'json'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url }), ...fast });
    expect(none.code).toBe(4);
  });

  it('a proxy that cannot be reached is exit 10 naming it, its password masked', async () => {
    const dead = `http://ops:hunter22@127.0.0.1:${await deadPort()}`;
    const r = await svc(['agents', 'get', agentId], { env: emuEnv(t.emu, { HTTP_PROXY: dead }), ...fast });
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(`error: cannot reach ${t.emu.url}: the proxy ${dead.replace('hunter22', '***')} (HTTP_PROXY) cannot be reached (ECONNREFUSED)\n`);
  });

  it('a proxy that cannot reach the service (it closes the tunnel) or refuses it (403) is exit 10 naming it', async () => {
    const p = await proxy();
    const down = `http://127.0.0.1:${await deadPort()}`;
    const r = await svc(['agents', 'get', agentId], { env: emuEnv(t.emu, { SVC_BASE_URL: down, HTTP_PROXY: p.url }), ...fast });
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(`error: cannot reach ${down}: the proxy ${p.url} (HTTP_PROXY) refused to connect to ${target(down)}: it closed the connection\n`);
    const strict = await proxy({ refuse: 403 });
    const refused = await svc(['agents', 'get', agentId], { env: emuEnv(t.emu, { HTTP_PROXY: strict.url }), ...fast });
    expect(refused.code).toBe(10);
    expect(refused.stderr).toBe(
      `error: cannot reach ${t.emu.url}: the proxy ${strict.url} (HTTP_PROXY) refused to connect to ${target(t.emu.url)}: it answered 403\n`,
    );
  });

  it('a proxy URL svc cannot use is exit 2 naming the variable, before any request', async () => {
    const r = await svc(['agents', 'get', agentId], { env: emuEnv(t.emu, { HTTP_PROXY: 'socks5://u:secret-pw@127.0.0.1:1080' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: HTTP_PROXY "socks5://u:***@127.0.0.1:1080" is not an http(s) proxy: svc speaks to HTTP proxies only\n');
  });

  it('--debug names the proxy of each request, its password masked', async () => {
    const p = await proxy({ auth: { user: 'ops', password: 'hunter22' } });
    const r = await svc(['agents', 'get', agentId, '-o', 'json', '--debug'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url.replace('//', '//ops:hunter22@') }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`debug: > GET ${t.emu.url}/v1/agents/${agentId} attempt=1 via proxy ${p.url.replace('//', '//ops:***@')}\n`);
    expect(r.stderr).not.toContain('hunter22');
  });

  it('an SSE stream (sessions tail) runs through the proxy to the end of the turn', async () => {
    const p = await proxy();
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo first');
    await waitIdleEvents(t.emu, s.id, 1);
    await send(t.emu, s.id, `/slow 20 ${'w '.repeat(15)}`);
    const r = await svc(['sessions', 'tail', s.id, '--until', 'idle'], { env: emuEnv(t.emu, { HTTP_PROXY: p.url }), ...fast });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: { status?: string } });
    expect(events.filter((e) => e.type === 'session.status' && e.data.status === 'idle')).toHaveLength(2);
    expect(p.seen.length).toBeGreaterThan(0);
    expect(p.seen.every((s) => s === `CONNECT ${target(t.emu.url)}`)).toBe(true);
  });
});

describe('HTTPS through the proxy, with a private CA', () => {
  let front: Awaited<ReturnType<typeof tlsFront>>;
  beforeAll(async () => {
    front = await tlsFront(t.emu.url);
  });
  afterAll(() => front.close());
  const env = (extra: Record<string, string>) => emuEnv(t.emu, { SVC_BASE_URL: front.url, ...extra });

  it('HTTPS_PROXY: a CONNECT tunnel to the service, whose certificate SVC_CA_FILE makes trusted', async () => {
    const p = await proxy();
    const r = await svc(['agents', 'get', agentId, '-o', 'json'], { env: env({ HTTPS_PROXY: p.url, SVC_CA_FILE: TEST_CA_FILE }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(agentId);
    expect(p.seen).toEqual([`CONNECT ${target(front.url)}`]);
  });

  it('without the CA the certificate is refused (exit 10), through the proxy or not', async () => {
    const p = await proxy();
    for (const extra of [{ HTTPS_PROXY: p.url }, {}] as Record<string, string>[]) {
      const r = await svc(['agents', 'get', agentId], { env: env(extra), ...fast });
      expect(r.code).toBe(10);
      expect(r.stderr).toMatch(
        /^error: cannot reach https:\/\/127\.0\.0\.1:\d+: its certificate is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): is SVC_CA_FILE set to its CA's PEM file\?\n$/,
      );
    }
  });

  it('the profile setting ca_file does the same; `config set ca_file` checks the file and keeps its absolute path', async () => {
    const dir = tempConfigDir();
    const set = await svc(['config', 'set', 'ca_file', TEST_CA_FILE], { env: { SVC_CONFIG_DIR: dir } });
    expect(set.code).toBe(0);
    const r = await svc(['agents', 'get', agentId, '-o', 'json'], { env: { ...env({}), SVC_CONFIG_DIR: dir } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a CA file svc cannot use is exit 2 in one line naming where it was set', async () => {
    const dir = tempConfigDir();
    const missing = `${dir}/nope.pem`;
    const r = await svc(['agents', 'get', agentId], { env: env({ SVC_CA_FILE: missing }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: SVC_CA_FILE ${missing} cannot be read (ENOENT)\n`);
    const notPem = await svc(['agents', 'get', agentId], { env: env({ SVC_CA_FILE: new URL(import.meta.url).pathname }) });
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toMatch(/^error: SVC_CA_FILE \S+ holds no PEM certificate/);
    const set = await svc(['config', 'set', 'ca_file', missing], { env: { SVC_CONFIG_DIR: dir } });
    expect(set.code).toBe(2);
    expect(set.stderr).toBe(`error: ca_file ${missing} cannot be read (ENOENT)\n`);
  });

  // Node reads NODE_EXTRA_CA_CERTS as it starts: the built svc in its own process. CI builds dist/ first.
  const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
  it.skipIf(!existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url))) && !process.env.CI)(
    'NODE_EXTRA_CA_CERTS keeps working, alone and beside SVC_CA_FILE (needs `npm run build`)',
    async () => {
      const p = await proxy();
      const run = (extra: Record<string, string>) =>
        promisify(execFile)(process.execPath, [bin, 'agents', 'get', agentId, '-o', 'json'], {
          env: {
            PATH: process.env.PATH ?? '',
            SVC_CONFIG_DIR: tempConfigDir(),
            SVC_API_KEY: t.emu.apiKey,
            SVC_BASE_URL: front.url,
            HTTPS_PROXY: p.url,
            ...extra,
          },
        });
      expect(JSON.parse((await run({ NODE_EXTRA_CA_CERTS: TEST_CA_FILE })).stdout).id).toBe(agentId);
      // Another file in SVC_CA_FILE (here the server's own certificate, no CA) adds to NODE_EXTRA_CA_CERTS, never replaces it.
      const other = fileURLToPath(new URL('../fixtures/tls/server.pem', import.meta.url));
      expect(JSON.parse((await run({ NODE_EXTRA_CA_CERTS: TEST_CA_FILE, SVC_CA_FILE: other })).stdout).id).toBe(agentId);
      expect(p.seen).toHaveLength(2);
    },
    30_000,
  );
});
