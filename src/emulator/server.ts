import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { atomicWriteSync } from '../fs/atomic-write';
import { LIMITS } from '../wire/limits';
import { API_VERSION, IDEMPOTENCY_HEADER, VERSION_HEADER, isFilesPath } from '../wire/version';
import { registerAdmin } from './admin';
import { registerSeed } from './seed';
import { registerOutage } from './outage';
import { Clock } from './clock';
import { Credentials, type Credential } from './credentials';
import { errorBody, HttpError } from './errors';
import { Faults, type FaultConfig } from './faults';
import { IdempotencyStore } from './idempotency';
import { MODULES } from './resources/index';
import type { Services } from './services';
import { Router, STREAMED, type EmuRequest, type Reply, type Route } from './router';
import { Collection, type Rec } from './store';
import { Webhooks } from './webhooks';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  faults?: FaultConfig;
  /** JSON snapshot file, written atomically after writes and loaded at start. */
  statePath?: string;
  /** Interval of `: hb` keep-alives on streams (spec: 30 s). */
  heartbeatMs?: number;
  /** Lease and delivery windows of the work queue, shortened in tests. */
  leaseTtlMs?: number;
  deliveryWindowMs?: number;
  /**
   * How long after a lease runs out the platform notices the lost worker and re-queues its row (default 0: at once).
   * A real service reclaims on its own schedule; tests of a stuck worker set it to see the expired lease.
   */
  reclaimGraceMs?: number;
  /** Delay between streamed fragments of the scripted model. */
  modelStepMs?: number;
  /**
   * Fire cron triggers when their time comes on the real clock (default true). With false, schedules
   * fire only through `POST /_emulator/clock/advance` and `POST /_emulator/triggers/{id}/fire`.
   */
  realTimeSchedules?: boolean;
  /** Where webhooks (`trigger.paused`) are POSTed; they are always kept at `GET /_emulator/webhooks`. */
  webhookUrl?: string;
  log?: (line: string) => void;
}

/** Something a resource module keeps beyond its collections, saved in the snapshot. */
export interface Persisted {
  dump(): unknown;
  load(data: unknown): void;
}

export class Emulator {
  readonly router = new Router();
  /** Paths under /_emulator, loopback only, never under /v1. */
  readonly admin = new Router();
  readonly credentials = new Credentials();
  readonly faults = new Faults();
  readonly idempotency = new IdempotencyStore();
  /** The clock trigger schedules read; `POST /_emulator/clock/advance` moves it. */
  readonly clock = new Clock();
  readonly webhooks: Webhooks;
  /** What resource modules offer each other (see services.ts). */
  readonly services: Services = {};
  readonly apiKey: string;
  private readonly collections = new Map<string, Collection<any>>();
  private readonly persisted = new Map<string, Persisted>();
  private readonly closers: Array<() => void> = [];
  private server?: Server;
  private saveTimer?: NodeJS.Timeout;
  url = '';

  constructor(readonly options: EmulatorOptions = {}) {
    this.apiKey = this.credentials.issue({ kind: 'api' }, options.apiKey);
    this.webhooks = new Webhooks(options.webhookUrl, (name) => this.faults.count(name), options.log);
    if (options.faults) this.faults.set(options.faults);
    registerAdmin(this);
    registerSeed(this);
    registerOutage(this);
    for (const register of MODULES) register(this);
    if (options.statePath && existsSync(options.statePath)) this.loadSnapshot(options.statePath);
  }

  get heartbeatMs(): number {
    return this.options.heartbeatMs ?? LIMITS.heartbeatMs;
  }

  collection<T extends Rec = Rec>(name: string, prefix: string, label: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new Collection<T>(prefix, label)));
    return c as Collection<T>;
  }

  persist(name: string, p: Persisted): void {
    this.persisted.set(name, p);
  }

  /** Called on close: timers and open streams of resource modules. */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  async listen(): Promise<this> {
    // A failure while answering (even while sending the error) ends that response, never the process.
    const server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        this.options.log?.(`internal error: ${(e as Error)?.stack ?? e}`);
        res.destroy();
      });
    });
    server.keepAliveTimeout = 5000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    this.url = `http://${host}:${port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const fn of this.closers) fn();
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveNow();
    }
    const s = this.server;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = 'req_' + randomBytes(9).toString('base64url');
    res.setHeader('Svc-Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const started = Date.now();
    res.once('finish', () => this.options.log?.(`${method} ${path} ${res.statusCode} ${Date.now() - started}ms ${requestId}`));
    try {
      if (path.startsWith('/_emulator/')) return await this.handleAdmin(req, res, method, path, url.searchParams, requestId);
      await this.handleApi(req, res, method, path, url.searchParams, requestId);
    } catch (e) {
      this.sendError(res, e, requestId);
    }
  }

  private async handleApi(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams, requestId: string): Promise<void> {
    this.faults.count('requests');
    // Writes apart, so a test can prove a command sent none (an idempotent `svc apply`).
    if (method !== 'GET') this.faults.count('writes');
    if (this.faults.rateLimitNow()) {
      throw new HttpError(429, 'rate_limit_reached_error', 'rate limit reached (injected)', undefined, {
        'Retry-After': String(this.faults.config.retry_after ?? 1),
      });
    }
    // Quota is not a rate: no Retry-After, and waiting does not help.
    if (this.faults.overQuotaNow()) throw new HttpError(429, 'exceeded_current_quota_error', 'the project is over its quota (injected)');
    const auth = req.headers.authorization;
    const m = auth ? /^Bearer (\S+)$/.exec(auth) : null;
    if (!m)
      throw new HttpError(401, 'authentication_error', auth ? 'the Authorization header is not a Bearer credential' : 'the Authorization header is missing');
    const token = m[1];
    const cred = this.credentials.resolve(token);
    if (!cred) throw new HttpError(401, 'authentication_error', 'the credential is not valid');
    const version = req.headers[VERSION_HEADER];
    if (version === undefined) {
      if (!isFilesPath(path)) throw new HttpError(400, 'invalid_request_error', `the ${VERSION_HEADER} header is required`, `header.${VERSION_HEADER}`);
    } else if (version !== API_VERSION) {
      throw new HttpError(400, 'invalid_request_error', `unsupported ${VERSION_HEADER} "${version}"; supported: ${API_VERSION}`, `header.${VERSION_HEADER}`);
    }
    const { route, params, methodMismatch } = this.router.match(method, path);
    if (!route) {
      if (methodMismatch) throw new HttpError(400, 'invalid_request_error', `method ${method} is not allowed on ${path}`);
      throw new HttpError(404, 'resource_not_found_error', `no such path: ${method} ${path}`);
    }
    if (!(route.opts.auth ?? ['api']).includes(cred.kind)) {
      throw new HttpError(
        403,
        'permission_denied_error',
        `this credential (${cred.kind === 'api' ? 'API key' : cred.kind === 'environment' ? 'environment work key' : 'session work token'}) cannot call ${method} ${route.pattern}`,
      );
    }
    const raw = await this.readBody(req, route, method);
    const body = raw === undefined || raw.length === 0 ? undefined : parseJson(raw);
    const key = route.opts.idempotent ? headerValue(req.headers[IDEMPOTENCY_HEADER]) : undefined;
    const scope = cred.kind === 'api' ? 'api' : `${cred.kind}:${token}`;
    if (key !== undefined) {
      const replay = this.idempotency.begin(scope, key, IdempotencyStore.fingerprint(method, path, raw));
      if (replay) {
        this.faults.count('idempotent_replays');
        return this.sendJson(res, replay.status, replay.body);
      }
    }
    // Delayed after the key is taken, so a delayed keyed request counts as still running.
    const delay = this.faults.config.delay_ms;
    if (delay) {
      this.faults.count('delayed');
      await new Promise((r) => setTimeout(r, delay));
    }
    const r: EmuRequest = { method, path, params, query, headers: req.headers, body, req, res, cred, token, requestId, versioned: version !== undefined };
    let reply: Reply;
    try {
      if (method !== 'GET' && this.faults.rejectWriteNow()) throw new HttpError(500, 'server_error', 'internal error before the write was applied (injected)');
      reply = await route.handler(r);
    } catch (e) {
      if (key !== undefined)
        this.idempotency.finish(scope, key, e instanceof HttpError ? e.status : 500, e instanceof HttpError ? errorBody(e, requestId) : undefined);
      throw e;
    }
    if (reply === STREAMED) return;
    if (key !== undefined) this.idempotency.finish(scope, key, reply.status, reply.body);
    if (method !== 'GET') {
      this.scheduleSave();
      if (reply.status < 400 && this.faults.failWriteNow()) throw new HttpError(500, 'server_error', 'internal error after the write was applied (injected)');
    }
    this.sendJson(res, reply.status, reply.body, reply.headers);
  }

  private async handleAdmin(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams, requestId: string): Promise<void> {
    const addr = req.socket.remoteAddress ?? '';
    if (!/^(127\.|::1$|::ffff:127\.)/.test(addr)) throw new HttpError(403, 'permission_denied_error', 'the admin paths answer loopback only');
    const { route, params } = this.admin.match(method, path);
    if (!route) throw new HttpError(404, 'resource_not_found_error', `no such admin path: ${method} ${path}`);
    const raw = await this.readBody(req, route, method);
    const body = raw === undefined || raw.length === 0 ? undefined : parseJson(raw);
    const reply = await route.handler({
      method,
      path,
      params,
      query,
      headers: req.headers,
      body,
      req,
      res,
      cred: { kind: 'api' },
      token: '',
      requestId,
      versioned: true,
    });
    if (reply !== STREAMED) this.sendJson(res, reply.status, reply.body, reply.headers);
  }

  /** Reads a JSON body within its limit; oversized is 400 invalid_request_error, never 413. */
  private async readBody(req: IncomingMessage, route: Route, method: string): Promise<Buffer | undefined> {
    const mode = route.opts.body ?? (method === 'GET' || method === 'DELETE' ? 'none' : 'json');
    if (mode === 'raw') return undefined;
    const type = headerValue(req.headers['content-type']);
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    const hasBody = declaredLength > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && type !== undefined && !/^application\/json\s*(;.*)?$/i.test(type)) {
      await drain(req);
      throw new HttpError(400, 'invalid_request_error', `Content-Type ${type} is not accepted here; send application/json`);
    }
    const limit = route.opts.bodyLimit ?? LIMITS.jsonBody;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size <= limit) chunks.push(c as Buffer);
    }
    if (size > limit) throw new HttpError(400, 'invalid_request_error', `the request body is larger than ${limit} bytes`);
    if (size > 0 && type === undefined) throw new HttpError(400, 'invalid_request_error', 'a request body needs Content-Type: application/json');
    return Buffer.concat(chunks);
  }

  sendJson(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (status === 204 || body === undefined) {
      res.writeHead(status).end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  }

  private sendError(res: ServerResponse, e: unknown, requestId: string): void {
    const err = e instanceof HttpError ? e : new HttpError(500, 'server_error', 'internal error');
    if (!(e instanceof HttpError)) this.options.log?.(`internal error ${requestId}: ${(e as Error)?.stack ?? e}`);
    this.sendJson(res, err.status, errorBody(err, requestId), err.headers);
  }

  /** Saves the snapshot soon; called after every write, and by modules that change state on their own (the scheduler). */
  scheduleSave(): void {
    if (!this.options.statePath || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.saveNow(), 50);
  }

  private saveNow(): void {
    this.saveTimer = undefined;
    const file = this.options.statePath;
    if (!file) return;
    const data = {
      collections: Object.fromEntries([...this.collections].map(([k, c]) => [k, [...c.items.values()]])),
      extra: Object.fromEntries([...this.persisted].map(([k, p]) => [k, p.dump()])),
    };
    // Credential values and keys are in it: owner-only (atomic-write.ts).
    atomicWriteSync(file, JSON.stringify(data));
  }

  private loadSnapshot(file: string): void {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { collections?: Record<string, Rec[]>; extra?: Record<string, unknown> };
    for (const [name, items] of Object.entries(data.collections ?? {})) {
      const c = this.collections.get(name);
      if (c) for (const it of items) c.restore(it);
    }
    for (const [name, v] of Object.entries(data.extra ?? {})) this.persisted.get(name)?.load(v);
  }
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'invalid_request_error', 'the request body is not valid JSON');
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) {
    // discard
  }
}

/** Starts an emulator and waits until it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return new Emulator(options).listen();
}

export type { Credential };
