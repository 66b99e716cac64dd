/**
 * undici's request over its global dispatcher, loading only what a request needs: the package index also
 * loads fetch, WebSocket, mocks and cache stores, about 60 ms of start-up per command (bench/run.mjs).
 * The dispatcher is undici's global one, so tests that install a MockAgent still intercept every request.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

// undici parses HTTP with a WebAssembly llhttp; V8's optimising tier compiling it costs ~35 MB of peak RSS and
// ~50 ms per request command, and the baseline tier parses fast enough (bench/run.mjs). Set here, before undici's
// first connection compiles the module, so commands that make no request do not load node:v8.
setFlagsFromString('--liftoff-only');

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return apiRequest.call(getGlobalDispatcher(), { ...opts, origin: u.origin, path: u.pathname + u.search });
}
