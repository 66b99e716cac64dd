/**
 * undici's request over its global dispatcher, loading only what a request needs: the package index also
 * loads fetch, WebSocket, mocks and cache stores, about 60 ms of start-up per command (bench/run.mjs).
 * The dispatcher is undici's global one, so tests that install a MockAgent still intercept every request.
 */
import type { Dispatcher } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return apiRequest.call(getGlobalDispatcher(), { ...opts, origin: u.origin, path: u.pathname + u.search });
}
