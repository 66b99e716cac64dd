/**
 * A loopback HTTP server that answers from a script, for narrow tests of the HTTP layer: each route answers a given
 * number of times, in order, and every request is recorded with its headers and body. Unscripted requests get 599.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer: a status with a body (an object is sent as JSON) and headers, or `cut` (the connection closed unanswered). */
export type Answer = { status: number; body?: string | object; headers?: Record<string, string> } | 'cut';

interface Route {
  method: string;
  path: string | ((path: string) => boolean);
  answer: Answer | ((seen: Seen) => Answer);
  times: number;
}

export interface Scripted {
  url: string;
  seen: Seen[];
  on(method: string, path: Route['path'], answer: Route['answer'], times?: number): void;
  close(): Promise<void>;
}

export async function scriptedServer(): Promise<Scripted> {
  const routes: Route[] = [];
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      const route = routes.find((r) => r.times > 0 && r.method === s.method && (typeof r.path === 'string' ? r.path === s.path : r.path(s.path)));
      if (!route) return answer(res, { status: 599, body: `unscripted ${s.method} ${s.path}` });
      route.times--;
      answer(res, typeof route.answer === 'function' ? route.answer(s) : route.answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    on: (method, path, answer, times = 1) => void routes.push({ method, path, answer, times }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, a: Answer): void {
  if (a === 'cut') {
    res.socket?.destroy();
    return;
  }
  const body = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-length': Buffer.byteLength(body), ...a.headers });
  res.end(body);
}
