/**
 * A TLS server in front of a plain HTTP one (the emulator): it ends TLS with test/fixtures/tls's certificate, issued
 * for 127.0.0.1 and localhost by the fixture's own CA (ca.pem; generated once with openssl, valid for 100 years, for
 * tests only), and passes the bytes on. svc reaches the emulator over HTTPS through it.
 */
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { fileURLToPath } from 'node:url';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/tls/${name}`, import.meta.url));
/** The CA that issued the server's certificate: what SVC_CA_FILE names to trust it. */
export const TEST_CA_FILE = fixture('ca.pem');

export async function tlsFront(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const server: Server = createServer({ key: readFileSync(fixture('server.key')), cert: readFileSync(fixture('server.pem')) }, (socket) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [socket, upstream]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of open) s.destroy();
      }),
  };
}
