/**
 * One HTTP exchange over Node's own client (node:http; node:https, loaded on first use, for https: URLs), with
 * keep-alive connections shared by every request of the process. Not undici, the named library: its WebAssembly
 * parser and 60 modules were the largest part of a request command's start-up, and Node's client parses with the
 * C++ llhttp already in its binary (scripts/build/PERF.md, "HTTP over node:http"). What undici gave that svc relies on
 * is here: a timeout to the response's headers, an idle timeout while its body is read, an abort signal that ends both,
 * redirects never followed, and a URL's userinfo never sent.
 */
import { setMaxListeners } from 'node:events';
import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { BODY_TIMEOUT, HEADERS_TIMEOUT, INVALID_REQUEST } from './errors';

export interface RequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string | Readable;
  signal?: AbortSignal;
  /** How long the response's headers may take, in ms; undefined: 300 s. */
  headersTimeout?: number;
  /** How long the body may stay idle while it is read, in ms; 0: no limit (streams, long polls); undefined: 300 s. */
  bodyTimeout?: number;
}

/** The response's body: Node's IncomingMessage, a Readable of Buffers. */
export type ResponseBody = IncomingMessage;

export interface Response {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: ResponseBody;
}

const DEFAULT_TIMEOUT_MS = 300_000;

/** Signals already told to take any number of listeners. */
const shared = new WeakSet<object>();
const agents: { http?: Agent; https?: Agent } = {};

/** The shared keep-alive agent of a protocol; https (node:tls and node:crypto) loads only for an https: URL. */
function agentFor(protocol: string): { agent: Agent; request: typeof httpRequest } {
  if (protocol === 'https:') {
    const https = process.getBuiltinModule('node:https');
    agents.https ??= new https.Agent({ keepAlive: true });
    return { agent: agents.https, request: https.request };
  }
  agents.http ??= new Agent({ keepAlive: true });
  return { agent: agents.http, request: httpRequest };
}

function failure(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

/** Sends one request; resolves when the response's headers arrive, with its body unread. */
export function request(url: string, opts: RequestOptions): Promise<Response> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return Promise.reject(failure(`${u.protocol} is not http: or https:`, INVALID_REQUEST));
  const signal = opts.signal;
  // Each request in flight listens on its signal until it ends; one signal (Ctrl-C, a listener's stop) spans many
  // requests at once by design, so Node's leak warning at 11 listeners would be a false alarm on stderr.
  if (signal && !shared.has(signal)) {
    shared.add(signal);
    setMaxListeners(0, signal);
  }
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<Response>((resolve, reject) => {
    const { agent, request: send } = agentFor(u.protocol);
    let req: ClientRequest;
    try {
      req = send({
        protocol: u.protocol,
        // An IPv6 literal keeps its brackets in URL.hostname, not in a host to connect to.
        hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method,
        headers: opts.headers,
        agent,
      });
    } catch (e) {
      reject(failure(`the request cannot be sent: ${(e as Error).message}`, INVALID_REQUEST, e));
      return;
    }
    let res: IncomingMessage | undefined;
    const headersMs = opts.headersTimeout || DEFAULT_TIMEOUT_MS;
    const headersTimer = setTimeout(() => req.destroy(failure(`no response headers within ${headersMs}ms`, HEADERS_TIMEOUT)), headersMs);
    const onAbort = () => {
      const err = abortError(signal!);
      req.destroy(err);
      res?.destroy(err);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(headersTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    req.on('error', (e) => {
      done();
      reject(e);
    });
    req.on('response', (r) => {
      clearTimeout(headersTimer);
      res = r;
      watchBody(r, opts.bodyTimeout ?? DEFAULT_TIMEOUT_MS, done);
      resolve({ statusCode: r.statusCode ?? 0, headers: r.headers, body: r });
    });
    const body = opts.body;
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
      req.end(body);
    } else {
      body.on('error', (e) => req.destroy(e));
      // An upload the service stopped taking (an early answer, a cut) closes its source too: no file stays open.
      req.once('close', () => body.destroy());
      body.pipe(req);
    }
  });
}

/**
 * An idle timeout while the body is read: no byte from the service for `ms` ends it with BODY_TIMEOUT, unless svc is
 * the one not reading (a body whose buffer is full waits on its reader, not on the service).
 */
function watchBody(res: IncomingMessage, ms: number, done: () => void): void {
  const socket = res.socket;
  let timer: NodeJS.Timeout | undefined;
  const onData = () => timer?.refresh();
  if (ms > 0) {
    timer = setTimeout(function idle() {
      if (res.readableLength >= res.readableHighWaterMark) timer!.refresh();
      else res.destroy(failure(`the body was idle for ${ms}ms`, BODY_TIMEOUT));
    }, ms);
    socket?.on('data', onData);
  }
  // A body nobody reads may still fail (a cut); its reader, if any, sees the error through its own listener.
  res.on('error', () => undefined);
  res.once('close', () => {
    clearTimeout(timer);
    socket?.off('data', onData);
    done();
  });
}

/** The signal's own reason when it is an error (an AbortError, AbortSignal.timeout's TimeoutError), else an AbortError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('the request was aborted', { cause: reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** The whole body as text (UTF-8, decoded once at the end so no character is split between chunks). */
export async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A body svc does not read, drained so its connection is reused. */
export function discard(body: Readable): void {
  body.resume();
}
