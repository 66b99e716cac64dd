import { mkdtempSync, realpathSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Emulator } from '../../src/emulator/server';
import { call } from '../helpers/emulator';
import { createSession, history, send, waitUntil } from '../helpers/sse';

/** A self-hosted environment and its work key, issued through the emulator's admin path. */
export async function selfHostedEnvironment(emu: Emulator): Promise<{ id: string; key: string }> {
  const env = await call(emu, 'POST', '/v1/environments', { body: { name: `self-${Math.random().toString(36).slice(2)}`, config: { type: 'self_hosted' } } });
  expect(env.status).toBe(201);
  const key = await call(emu, 'POST', `/_emulator/environments/${env.body.id}/keys`);
  expect(key.status).toBe(201);
  return { id: env.body.id, key: key.body.key };
}

/**
 * Records every session work token the emulator issues, in-process, so a test can prove none of them ever
 * reached the worker's output without the worker having to print anything.
 */
export function recordSessionTokens(emu: Emulator): { tokens: Array<{ token: string; sessionId: string }> } {
  const rec = { tokens: [] as Array<{ token: string; sessionId: string }> };
  const creds = emu.credentials;
  if ((creds as any).__recorded) return (creds as any).__recorded;
  const issue = creds.issue.bind(creds);
  creds.issue = (cred, token) => {
    const t = issue(cred, token);
    if (cred.kind === 'session') rec.tokens.push({ token: t, sessionId: cred.sessionId });
    return t;
  };
  (creds as any).__recorded = rec;
  return rec;
}

/** Output must hold none of the worker's secrets (R-WORK-11). */
export function expectNoSecrets(output: string, secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const s of secrets) expect(output.includes(s), 'a secret appeared in the worker output').toBe(false);
}

export const workdir = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'svc-worker-dir-')));

export async function toolSession(emu: Emulator, envId: string, directive: string): Promise<string> {
  const s = await createSession(emu, { environment_id: envId });
  await send(emu, s.id, directive);
  return s.id;
}

export const rowsOf = async (emu: Emulator, envId: string): Promise<any[]> =>
  (await call(emu, 'GET', `/v1/environments/${envId}/work?page_size=1000`)).body.items;

export const rowOf = async (emu: Emulator, envId: string, sessionId: string): Promise<any> =>
  (await rowsOf(emu, envId)).find((r) => r.session_id === sessionId);

export const waitRow = (emu: Emulator, envId: string, sessionId: string, pred: (row: any) => boolean, what: string, timeoutMs?: number): Promise<any> =>
  waitUntil(
    async () => {
      const row = await rowOf(emu, envId, sessionId);
      return row && pred(row) ? row : undefined;
    },
    what,
    timeoutMs,
  );

export const toolResults = async (emu: Emulator, sid: string): Promise<any[]> =>
  (await history(emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'user.tool_result');

export const resultText = (ev: any): string => ev.data.content.map((c: any) => c.text).join('');

/** True once no process has this id (a killed tool's process group is gone). */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

const servers: Server[] = [];

/** A loopback HTTP server for one test file's stand-ins; {@link closeServers} ends them all. */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

export async function closeServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
}

export interface Rewrites {
  /** A JSON answer (`body` parsed, undefined when empty): a replacement status and body text, or undefined to pass it on. */
  json?: (req: { method: string; url: string }, status: number, body: any) => { status: number; text: string } | undefined;
  /** The path and query sent on to the emulator. */
  url?: (url: string) => string;
  /** Each complete event of a stream, as parsed from its `data:` line; the frame's `event:` line follows its type. */
  event?: (ev: any) => any;
}

/** A pass-through in front of the emulator that rewrites JSON answers and stream events (shapes the emulator does not produce). */
export function rewritingProxy(target: string, rw: Rewrites): Promise<string> {
  return listen((req, res) => {
    const up = request(target + (rw.url ? rw.url(req.url ?? '') : req.url), { method: req.method, headers: req.headers }, (ur) => {
      const stream = String(ur.headers['content-type'] ?? '').startsWith('text/event-stream');
      if ((stream && !rw.event) || (!stream && !rw.json)) {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
        return;
      }
      if (stream) {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        let buf = '';
        ur.setEncoding('utf8');
        ur.on('data', (c: string) => {
          buf += c;
          for (let at = buf.indexOf('\n\n'); at >= 0; at = buf.indexOf('\n\n')) {
            res.write(rewriteFrame(buf.slice(0, at), rw.event!) + '\n\n');
            buf = buf.slice(at + 2);
          }
        });
        ur.on('end', () => res.end(buf));
        return;
      }
      const chunks: Buffer[] = [];
      ur.on('data', (c: Buffer) => chunks.push(c));
      ur.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        const out = rw.json?.({ method: req.method ?? 'GET', url: req.url ?? '' }, ur.statusCode ?? 502, body);
        const status = out?.status ?? ur.statusCode ?? 502;
        const sent = out ? out.text : text;
        const { 'content-length': _, ...headers } = ur.headers;
        if (status !== 204) headers['content-length'] = String(Buffer.byteLength(sent));
        res.writeHead(status, headers);
        res.end(status === 204 ? undefined : sent);
      });
    });
    // The worker went away mid-request (a long poll at shutdown): drop the other side too.
    up.on('error', () => res.destroy());
    res.on('close', () => res.writableFinished || up.destroy());
    req.pipe(up);
  });
}

function rewriteFrame(frame: string, event: (ev: any) => any): string {
  const lines = frame.split('\n');
  const at = lines.findIndex((l) => l.startsWith('data: '));
  const kind = lines.findIndex((l) => l.startsWith('event: '));
  if (at < 0) return frame;
  let ev: any;
  try {
    ev = JSON.parse(lines[at].slice(6));
  } catch {
    return frame;
  }
  if (typeof ev?.type !== 'string') return frame;
  const out = event(ev);
  lines[at] = `data: ${JSON.stringify(out)}`;
  if (kind >= 0) lines[kind] = `event: ${out.type}`;
  return lines.join('\n');
}
