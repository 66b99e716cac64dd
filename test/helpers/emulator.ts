import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server';

/** Starts an emulator on port 0 for the file's tests and closes it after them. */
export function useEmulator(options: EmulatorOptions = {}): { readonly emu: Emulator } {
  const holder = {} as { emu: Emulator };
  beforeAll(async () => {
    holder.emu = await startEmulator({ port: 0, ...options });
  });
  afterAll(async () => {
    await holder.emu?.close();
  });
  return holder;
}

/** An Authorization header for a worker credential (environment work key or session work token). */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A raw request to the emulator with the version header and API key unless overridden. */
export async function call(
  emu: Emulator,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string | undefined>; raw?: string | Buffer } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  const base: Record<string, string | undefined> = {
    authorization: `Bearer ${emu.apiKey}`,
    'svc-api-version': '2026-09-01-beta',
    ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
  };
  for (const [k, v] of Object.entries(base)) if (v !== undefined) headers[k] = v;
  const res = await fetch(emu.url + path, {
    method,
    headers,
    body: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** How many API requests the emulator has answered: unchanged across a command proves it sent nothing. */
export async function requestCount(emu: Emulator): Promise<number> {
  return (await call(emu, 'GET', '/_emulator/stats')).body.requests ?? 0;
}
