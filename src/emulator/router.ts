import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Credential, CredentialKind } from './credentials';

export interface EmuRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (routes with body 'json'). */
  body: any;
  req: IncomingMessage;
  res: ServerResponse;
  cred: Credential;
  /** The credential's token, for scoping checks. */
  token: string;
  requestId: string;
  /** Whether the request carried the version header (matters only under /v1/files*). */
  versioned: boolean;
}

/** The handler wrote the response itself (streams, downloads). */
export const STREAMED = Symbol('streamed');
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | typeof STREAMED;
export type Handler = (r: EmuRequest) => Reply | Promise<Reply>;

export interface RouteOptions {
  /** Credential kinds allowed; others get 403. Default: API key only. */
  auth?: CredentialKind[];
  /** How the body is read: JSON (default for writes), raw (the handler reads req), or none. */
  body?: 'json' | 'raw' | 'none';
  /** Byte limit of a JSON body; over it is 400 invalid_request_error. */
  bodyLimit?: number;
  /** Declares Idempotency-Key (creates, uploads, publishes). */
  idempotent?: boolean;
}

export interface Route {
  method: string;
  pattern: string;
  re: RegExp;
  keys: string[];
  handler: Handler;
  opts: RouteOptions;
}

export class Router {
  readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): void {
    const keys: string[] = [];
    const re = new RegExp('^' + pattern.replace(/\//g, '\\/').replace(/:(\w+)/g, (_, k: string) => (keys.push(k), '([^/]+)')) + '$');
    // Literal routes (…/work/poll) win over parameter routes (…/work/:id): they are tried first.
    const literal = !pattern.includes(':');
    const route = { method, pattern, re, keys, handler, opts };
    if (literal) this.routes.unshift(route);
    else this.routes.push(route);
  }

  get = (p: string, h: Handler, o?: RouteOptions) => this.add('GET', p, h, o);
  post = (p: string, h: Handler, o?: RouteOptions) => this.add('POST', p, h, o);
  patch = (p: string, h: Handler, o?: RouteOptions) => this.add('PATCH', p, h, o);
  put = (p: string, h: Handler, o?: RouteOptions) => this.add('PUT', p, h, o);
  delete = (p: string, h: Handler, o?: RouteOptions) => this.add('DELETE', p, h, o);

  /** The route and its decoded parameters; `methodMismatch` when only the method is wrong. */
  match(method: string, path: string): { route?: Route; params: Record<string, string>; methodMismatch: boolean } {
    let methodMismatch = false;
    for (const route of this.routes) {
      const m = route.re.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1])));
      return { route, params, methodMismatch: false };
    }
    return { params: {}, methodMismatch };
  }
}
