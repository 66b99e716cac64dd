/**
 * A loopback HTTP proxy in front of the emulator for hostile-service tests: it passes every request on (streams
 * included) except those `hang` picks, which it never answers, and it may rewrite a JSON answer `rewrite` picks.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InterposerOptions {
  /** A request never answered (its connection held open until close). */
  hang?: (method: string, path: string, body: string) => boolean;
  /** A JSON answer replaced by what this returns (undefined: passed on as it is). */
  rewrite?: (method: string, path: string, json: Record<string, unknown>) => Record<string, unknown> | undefined;
}

export async function interposer(target: string, o: InterposerOptions): Promise<{ url: string; hung: () => number; close: () => Promise<void> }> {
  const to = new URL(target);
  const held = new Set<ServerResponse>();
  let hung = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      if (o.hang?.(method, path, body.toString('utf8'))) {
        hung++;
        held.add(res);
        return;
      }
      const out = request({ host: to.hostname, port: to.port, method, path, headers: { ...req.headers, host: to.host } }, (up) => {
        const json = /application\/json/.test(String(up.headers['content-type'] ?? ''));
        if (!json || !o.rewrite) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let answer = text;
          try {
            const changed = o.rewrite!(method, path, JSON.parse(text) as Record<string, unknown>);
            if (changed) answer = JSON.stringify(changed);
          } catch {
            // not JSON after all: passed on
          }
          const headers = { ...up.headers, 'content-length': String(Buffer.byteLength(answer)) };
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(answer);
        });
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hung: () => hung,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
