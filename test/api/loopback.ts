import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/**
 * A tiny HTTP server on 127.0.0.1:0 for answers the emulator never gives (redirects, empty 2xx, bodies cut or
 * stalled mid-way). `handle` is swapped per test; `seen` records every request it received.
 */
export function useLoopback(): { readonly url: string; seen: Seen[]; handle: Handler } {
  const t = { url: '', seen: [] as Seen[], handle: ((_req, res) => res.writeHead(500).end()) as Handler };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      t.seen.push(seen);
      t.handle(seen, res);
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return t;
}
