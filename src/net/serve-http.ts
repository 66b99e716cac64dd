import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../runtime/errors';
import type { HostPort } from './host-port';

export type { HostPort } from './host-port';

export interface Reply {
  status: number;
  type: string;
  body: string;
}

export interface HttpStatusServer {
  /** The address it listens on: the port chosen when 0 was asked. */
  readonly address: HostPort;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A read-only HTTP server for probes and scrapers: GET and HEAD only, one answer per path from `route` (404 when it
 * has none). A failing route answers 500 with its message and the server goes on.
 */
export async function serveHttp(at: HostPort, route: (path: string) => Reply | undefined | Promise<Reply | undefined>): Promise<HttpStatusServer> {
  const server = createServer((req, res) => void answer(req, res, route));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UsageError(`cannot listen on ${at.host}:${at.port}: ${e.code === 'EADDRINUSE' ? 'the address is in use' : e.message}`)),
    );
    server.listen(at.port, at.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const address = { host: a.address, port: a.port };
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    address,
    url: `http://${host}:${a.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, route: (path: string) => Reply | undefined | Promise<Reply | undefined>): Promise<void> {
  let reply: Reply;
  if (req.method !== 'GET' && req.method !== 'HEAD') reply = { status: 405, type: 'text/plain; charset=utf-8', body: 'method not allowed: GET or HEAD\n' };
  else {
    try {
      reply = (await route(new URL(req.url ?? '/', 'http://x').pathname)) ?? { status: 404, type: 'text/plain; charset=utf-8', body: 'not found\n' };
    } catch (e) {
      reply = { status: 500, type: 'text/plain; charset=utf-8', body: `${e instanceof Error ? e.message : String(e)}\n` };
    }
  }
  res.writeHead(reply.status, { 'content-type': reply.type, 'content-length': Buffer.byteLength(reply.body), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}
