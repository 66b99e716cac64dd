/**
 * A real forward proxy (proxy-chain, in-process) on 127.0.0.1:0 for the network tests: it records what it was asked
 * to reach (CONNECT host:port, or a plain request's host), and with `auth` it asks for those credentials (407).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RequestError, Server } from 'proxy-chain';

export interface Proxy {
  /** `http://127.0.0.1:PORT`, without credentials. */
  url: string;
  port: number;
  /** What each request asked to reach: `CONNECT host:port` or `GET host:port`. */
  seen: string[];
  close(): Promise<void>;
}

/** `auth`: the credentials it asks for; `refuse`: the status it answers every request with (a policy's refusal). */
export async function startProxy(o: { auth?: { user: string; password: string }; refuse?: number } = {}): Promise<Proxy> {
  const seen: string[] = [];
  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ request, username, password, hostname, port, isHttp }) => {
      seen.push(`${isHttp ? request.method : 'CONNECT'} ${hostname}:${port}`);
      if (o.refuse) throw new RequestError('refused by policy', o.refuse);
      if (o.auth) return { requestAuthentication: username !== o.auth.user || password !== o.auth.password };
      return {};
    },
  });
  await server.listen();
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, seen, close: () => server.close(true) };
}

/** A loopback port nothing listens on: a dead proxy, or a service that is down. */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
