import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One POST the receiver took, whatever it answered. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** What the receiver answered. */
  status: number;
  at: number;
}

/** How the receiver answers a request: a status, optional headers, or hold it (a receiver that hangs). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on port 0, as a team's own tool would be: it keeps every request and answers through
 * `respond` (200 by default), which a test swaps to fail, throttle or hang.
 */
export class Receiver {
  readonly requests: Received[] = [];
  respond: (r: Received) => Answer = () => ({ status: 200 });
  url = '';
  private server?: Server;
  private readonly held = new Set<() => void>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: any;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const r: Received = { headers: req.headers, body, json, status: 0, at: Date.now() };
        const answer = this.respond(r);
        this.requests.push(r);
        if (answer === 'hang') {
          const release = () => res.destroy();
          this.held.add(release);
          res.on('close', () => this.held.delete(release));
          return;
        }
        r.status = answer.status;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end('ok');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  /** Requests the receiver answered with a 2xx. */
  get accepted(): Received[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300);
  }

  async close(): Promise<void> {
    for (const release of this.held) release();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** A receiver for the file's tests, answering 200 until a test says otherwise (reset before each use). */
export function useReceiver(): Receiver {
  const receiver = new Receiver();
  beforeAll(() => receiver.start().then(() => undefined));
  afterAll(() => receiver.close());
  return receiver;
}

/** What a receiver does to trust a delivery: recompute the HMAC of `t.body` and compare in constant time, and check t is recent. */
export function verifySignature(header: string | string[] | undefined, body: string, secret: string, toleranceSeconds = 300, now = Date.now()): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
