// The HTTP layer (src/api/http.ts, undici) over loopback: its timeouts, aborts and refusals, each against a real server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BODY_TIMEOUT, HEADERS_TIMEOUT, INVALID_REQUEST } from '../../src/api/errors';
import { readText, request } from '../../src/api/http';

/** Whether this machine has an IPv6 loopback to listen on. */
const ipv6 = Object.values(networkInterfaces()).some((list) => list?.some((a) => a.address === '::1'));

let server: Server | undefined;
const requests: IncomingMessage[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1'): Promise<string> {
  server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

afterEach(async () => {
  requests.length = 0;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('the HTTP layer', () => {
  it('a response whose headers never come fails with its headers timeout', async () => {
    const url = await serve(() => undefined);
    const err = await request(`${url}/slow`, { method: 'GET', headers: {}, headersTimeout: 150 }).catch((e) => e);
    expect(err).toMatchObject({ code: HEADERS_TIMEOUT });
  });

  it('a body that stops arriving fails with the idle timeout, after the bytes that came', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const res = await request(url, { method: 'GET', headers: {}, bodyTimeout: 150 });
    const got: string[] = [];
    const err = await (async () => {
      for await (const chunk of res.body) got.push(String(chunk));
    })().catch((e) => e);
    expect(got.join('')).toBe('partial');
    expect(err).toMatchObject({ code: BODY_TIMEOUT });
  });

  it('a body svc is slow to read is not timed out: the wait is the reader’s, not the service’s', async () => {
    const whole = Buffer.alloc(4 << 20, 'x');
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(whole.length) });
      res.end(whole);
    });
    const res = await request(url, { method: 'GET', headers: {}, bodyTimeout: 100 });
    // The buffers fill and the socket stops reading; the reader comes back well after the idle timeout (undici's
    // timers tick about once a second, so the wait is longer than that).
    await new Promise((r) => setTimeout(r, 1600));
    expect((await readText(res.body)).length).toBe(whole.length);
  });

  it('an abort mid-body ends the reading with the signal’s reason', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    const controller = new AbortController();
    const res = await request(url, { method: 'GET', headers: {}, signal: controller.signal, bodyTimeout: 0 });
    const err = await (async () => {
      for await (const _ of res.body) controller.abort();
    })().catch((e) => e);
    expect(err).toMatchObject({ name: 'AbortError' });
  });

  it('an abort whose reason is not an error (the launcher aborts with "SIGTERM") ends the request and its body with an AbortError', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('a');
    });
    const early = new AbortController();
    early.abort('SIGTERM');
    expect(await request(url, { method: 'GET', headers: {}, signal: early.signal }).catch((e) => e)).toMatchObject({ name: 'AbortError', cause: 'SIGTERM' });
    const late = new AbortController();
    const res = await request(url, { method: 'GET', headers: {}, signal: late.signal, bodyTimeout: 0 });
    const err = await (async () => {
      for await (const _ of res.body) late.abort('SIGTERM');
    })().catch((e) => e);
    expect(err).toMatchObject({ name: 'AbortError', cause: 'SIGTERM' });
  });

  it('a URL’s userinfo is never sent: only the headers svc sets', async () => {
    const url = await serve((_req, res) => res.end('ok'));
    const withUser = url.replace('http://', 'http://ops:hunter2@');
    const res = await request(`${withUser}/x`, { method: 'GET', headers: { accept: 'text/plain' } });
    expect(await readText(res.body)).toBe('ok');
    expect(requests[0].headers.authorization).toBeUndefined();
  });

  it('a header value with a line break is refused before anything is sent', async () => {
    const url = await serve((_req, res) => res.end('ok'));
    const err = await request(url, { method: 'GET', headers: { 'x-note': 'a\r\nb' } }).catch((e) => e);
    expect(err).toMatchObject({ code: INVALID_REQUEST });
    expect(requests).toHaveLength(0);
  });

  it('an https: URL speaks TLS: a plain HTTP server on the other end is refused at the handshake', async () => {
    const url = await serve((_req, res) => res.end('plain'));
    const err = await request(url.replace('http:', 'https:'), { method: 'GET', headers: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(`${err.code} ${err.message}`).toMatch(/EPROTO|SSL|wrong version/i);
  });

  it('an upload streams its source and answers with the status', async () => {
    let received = '';
    const url = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (c: string) => (received += c));
      req.on('end', () => {
        res.writeHead(201);
        res.end();
      });
    });
    const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Readable.from(['a', 'b', 'c']) });
    expect(res.statusCode).toBe(201);
    expect(received).toBe('abc');
  });

  it('a redirect is answered as it is, never followed', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/old') res.writeHead(301, { location: '/new' }).end();
      else res.end('moved here');
    });
    const res = await request(`${url}/old`, { method: 'GET', headers: {} });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/new');
    expect(requests.map((r) => r.url)).toEqual(['/old']);
  });

  it.skipIf(!ipv6)('an IPv6 literal host is reached, its brackets not taken for part of the name', async () => {
    const url = await serve((req, res) => res.end(`host ${req.headers.host}`), '::1');
    const res = await request(`${url}/v6`, { method: 'GET', headers: {} });
    expect(await readText(res.body)).toBe(`host ${url.slice('http://'.length)}`);
  });

  it('an upload the service answers before taking it all is closed: its source stays open no longer than the exchange', async () => {
    const url = await serve((_req, res) => res.writeHead(413).end('too large'));
    // A source that never ends on its own, as a file being read would stay open.
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(64 << 10));
    const res = await request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: source }).catch((e) => e);
    if (!(res instanceof Error)) {
      expect(res.statusCode).toBe(413);
      await readText(res.body);
    }
    await vi.waitFor(() => expect(source.destroyed).toBe(true), { timeout: 2000 });
  });
});
