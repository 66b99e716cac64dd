/**
 * undici's request over its global dispatcher, loading only what a request needs: the package index also
 * loads fetch, WebSocket, mocks and cache stores, about 60 ms of start-up per command (bench/run.mjs).
 * The dispatcher is undici's global one, so tests that install a MockAgent still intercept every request.
 */
import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** Signals already told to take any number of listeners. */
const shared = new WeakSet<object>();

export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  // Each request in flight listens on its signal until it ends; one signal (Ctrl-C, a listener's stop) spans many
  // requests at once by design, so Node's leak warning at 11 listeners would be a false alarm on stderr.
  const signal = opts.signal as object | undefined;
  if (signal && !shared.has(signal)) {
    shared.add(signal);
    setMaxListeners(0, signal as AbortSignal);
  }
  return apiRequest.call(getGlobalDispatcher(), { ...opts, origin: u.origin, path: u.pathname + u.search });
}
