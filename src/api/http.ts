/**
 * One HTTP exchange over undici, the one HTTP client of svc: requests, streams, the worker's polls, listen's
 * deliveries, uploads and downloads all come here. Only undici's request function and its Agent load (not its index:
 * fetch, WebSocket, mocks, caches); its ProxyAgent loads when a proxy is in force. What svc relies on: a timeout to the
 * response's headers, an idle timeout while its body is read (not while svc itself is not reading), an abort signal
 * that ends both, redirects never followed, a URL's userinfo never sent, and an upload's source closed when the
 * exchange ends. Proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and extra CA certificates: docs/decisions/network.md.
 */
import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import { applyHeavyRunFlags } from '../startup/v8-flags';
import { INVALID_REQUEST, PROXY_AUTH, PROXY_FAILED } from './errors';
import { networkOr, proxyFor, shownProxy, trustedCertificates, type Network, type Proxy } from './network';

export interface RequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string | Readable;
  signal?: AbortSignal;
  /** How long the response's headers may take, in ms; undefined: 300 s. */
  headersTimeout?: number;
  /** How long the body may stay idle while it is read, in ms; 0: no limit (streams, long polls); undefined: 300 s. */
  bodyTimeout?: number;
  /** The proxy variables and extra certificates in force; undefined: the process's environment alone. */
  network?: Network;
}

/** The response's body: undici's, a Readable of Buffers. */
export type ResponseBody = Readable;

export interface Response {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: ResponseBody;
}

const DEFAULT_TIMEOUT_MS = 300_000;

/** Each caller's signal and the one undici is given in its place. */
const relayed = new WeakMap<AbortSignal, AbortSignal>();

/**
 * The signal undici is given for the caller's: it aborts with the caller's reason when that is an Error (an
 * AbortError, AbortSignal.timeout's TimeoutError), else with an AbortError carrying it (the launcher aborts with
 * 'SIGTERM'), so a request or a body ends with an Error, never a string. Each request in flight listens on it until
 * it ends; one signal (Ctrl-C, a listener's stop) spans many requests at once by design, so Node's leak warning at 11
 * listeners would be a false alarm on stderr.
 */
function errorSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  let relay = relayed.get(signal);
  if (!relay) {
    const controller = new AbortController();
    relay = controller.signal;
    setMaxListeners(0, signal);
    setMaxListeners(0, relay);
    const abort = () => controller.abort(abortError(signal));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    relayed.set(signal, relay);
  }
  return relay;
}

/** The signal's own reason when it is an error (an AbortError, AbortSignal.timeout's TimeoutError), else an AbortError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('the request was aborted', { cause: reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** The keep-alive dispatchers of this process, one per proxy (or none) and set of extra certificates. */
const dispatchers = new Map<string, Promise<Dispatcher>>();
const caIds = new WeakMap<object, number>();
let lastCaId = 0;

function dispatcherFor(network: Network, proxy: Proxy | undefined): Promise<Dispatcher> {
  const ca = network.ca?.pems;
  if (ca && !caIds.has(ca)) caIds.set(ca, ++lastCaId);
  const key = `${proxy?.url.href ?? 'direct'} ${ca ? caIds.get(ca) : 0}`;
  let made = dispatchers.get(key);
  if (!made) {
    made = makeDispatcher(network, proxy);
    dispatchers.set(key, made);
  }
  return made;
}

async function makeDispatcher(network: Network, proxy: Proxy | undefined): Promise<Dispatcher> {
  // undici parses HTTP with llhttp compiled to WebAssembly on its first connection: V8's optimising tier compiling it
  // cost ~140 ms of CPU on `agents get` (measured by hand, docs/decisions/network.md); the baseline tier parses fast
  // enough.
  applyHeavyRunFlags();
  const ca = trustedCertificates(network);
  const tls = ca ? { ca } : undefined;
  if (!proxy) return new Agent({ connect: tls });
  // Every request through a proxy is a CONNECT tunnel (undici's default), https: and http: alike: a refusal is the
  // proxy's answer to CONNECT, never mistaken for the service's. The proxy's own TLS (an https: proxy) trusts the
  // same certificates. The credentials of the proxy's URL go in Proxy-Authorization (Basic).
  const [{ default: ProxyAgent }, { default: Pool }, { default: connect }] = await Promise.all([
    import('undici/lib/dispatcher/proxy-agent.js'),
    import('undici/lib/dispatcher/pool.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  // The tunnel is opened with the connection pool's `connect`, which undici's index adds to every dispatcher; svc
  // loads not the index but the one function, given to the pool to the proxy alone. A proxy that closes the
  // connection instead of answering CONNECT is a failure of the tunnel: undici would take its `other side closed`
  // for a socket worth reconnecting and try again without end.
  async function tunnel(this: Dispatcher, opts: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> {
    try {
      return await connect.call(this, opts);
    } catch (e) {
      throw (e as { code?: string }).code === 'UND_ERR_SOCKET' ? failure('the proxy closed the connection', TUNNEL_CLOSED, e) : e;
    }
  }
  const clientFactory = (origin: URL, opts: object) => Object.assign(new Pool(origin, opts), { connect: tunnel });
  return new ProxyAgent({ uri: proxy.url.href, requestTls: tls, proxyTls: tls, clientFactory });
}

function failure(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

/** Sends one request; resolves when the response's headers arrive, with its body unread. */
export async function request(url: string, opts: RequestOptions): Promise<Response> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw failure(`${u.protocol} is not http: or https:`, INVALID_REQUEST);
  const signal = errorSignal(opts.signal);
  const network = networkOr(opts.network);
  const proxy = proxyFor(u, network.env);
  // An upload the service stopped taking (an early answer, a cut) has its source destroyed by undici: no file stays
  // open past the exchange (test/api/http.test.ts).
  try {
    const res = await apiRequest.call(await dispatcherFor(network, proxy), {
      // The origin carries no userinfo: a URL's `user:password@` is never sent.
      origin: u.origin,
      path: u.pathname + u.search,
      method: opts.method as Dispatcher.HttpMethod,
      headers: opts.headers,
      body: opts.body,
      signal,
      headersTimeout: opts.headersTimeout || DEFAULT_TIMEOUT_MS,
      bodyTimeout: opts.bodyTimeout ?? DEFAULT_TIMEOUT_MS,
    });
    // A body nobody reads may still fail (a cut); its reader, if any, sees the error through its own listener.
    res.body.on('error', () => undefined);
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  } catch (e) {
    throw (proxy && proxyFailure(e, proxy, u)) || e;
  }
}

/** undici's words for a tunnel the proxy refused: `Proxy response (407) !== 200 when HTTP Tunneling`. */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\)/;
/** The proxy closed the connection before it answered CONNECT. */
const TUNNEL_CLOSED = 'ERR_SVC_TUNNEL_CLOSED';
/** Failures of the connection to the proxy itself (the target's are the proxy's to report, as a refused tunnel). */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A failure of the proxy, in one line naming it (credentials masked); undefined when the failure is past the proxy. */
function proxyFailure(e: unknown, proxy: Proxy, target: URL): Error | undefined {
  const err = e as { message?: string; code?: string; syscall?: string };
  const shown = shownProxy(proxy.url);
  const status = TUNNEL_REFUSED.exec(err?.message ?? '')?.[1];
  if (status === '407') return failure(`the proxy ${shown} (${proxy.variable}) asked for credentials (407): put user:password in its URL`, PROXY_AUTH, e);
  if (status) return failure(`the proxy ${shown} (${proxy.variable}) refused to connect to ${target.host}: it answered ${status}`, PROXY_FAILED, e);
  if (err?.code === TUNNEL_CLOSED)
    return failure(`the proxy ${shown} (${proxy.variable}) refused to connect to ${target.host}: it closed the connection`, PROXY_FAILED, e);
  if (err?.code && CONNECT_FAILURES.has(err.code) && (err.syscall === undefined || err.syscall === 'connect' || err.syscall === 'getaddrinfo'))
    return failure(`the proxy ${shown} (${proxy.variable}) cannot be reached (${err.code})`, PROXY_FAILED, e);
  return undefined;
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
