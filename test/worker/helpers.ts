import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Emulator } from '../../src/emulator/server';
import { call } from '../helpers/emulator';
import { createSession, history, send, waitUntil } from '../helpers/sse';

/** A self-hosted environment and its work key, issued through the emulator's admin path. */
export async function selfHostedEnvironment(emu: Emulator): Promise<{ id: string; key: string }> {
  const env = await call(emu, 'POST', '/v1/environments', { body: { name: `self-${Math.random().toString(36).slice(2)}`, config: { type: 'self_hosted' } } });
  expect(env.status).toBe(201);
  const key = await call(emu, 'POST', `/_emulator/environments/${env.body.id}/keys`);
  expect(key.status).toBe(201);
  return { id: env.body.id, key: key.body.key };
}

/**
 * Records every session work token the emulator issues, in-process, so a test can prove none of them ever
 * reached the worker's output without the worker having to print anything.
 */
export function recordSessionTokens(emu: Emulator): { tokens: Array<{ token: string; sessionId: string }> } {
  const rec = { tokens: [] as Array<{ token: string; sessionId: string }> };
  const creds = emu.credentials;
  if ((creds as any).__recorded) return (creds as any).__recorded;
  const issue = creds.issue.bind(creds);
  creds.issue = (cred, token) => {
    const t = issue(cred, token);
    if (cred.kind === 'session') rec.tokens.push({ token: t, sessionId: cred.sessionId });
    return t;
  };
  (creds as any).__recorded = rec;
  return rec;
}

/** Output must hold none of the worker's secrets (R-WORK-11). */
export function expectNoSecrets(output: string, secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const s of secrets) expect(output.includes(s), 'a secret appeared in the worker output').toBe(false);
}

export const workdir = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'svc-worker-dir-')));

export async function toolSession(emu: Emulator, envId: string, directive: string): Promise<string> {
  const s = await createSession(emu, { environment_id: envId });
  await send(emu, s.id, directive);
  return s.id;
}

export const rowsOf = async (emu: Emulator, envId: string): Promise<any[]> => (await call(emu, 'GET', `/v1/environments/${envId}/work?page_size=1000`)).body.items;

export const rowOf = async (emu: Emulator, envId: string, sessionId: string): Promise<any> => (await rowsOf(emu, envId)).find((r) => r.session_id === sessionId);

export const waitRow = (emu: Emulator, envId: string, sessionId: string, pred: (row: any) => boolean, what: string): Promise<any> =>
  waitUntil(async () => {
    const row = await rowOf(emu, envId, sessionId);
    return row && pred(row) ? row : undefined;
  }, what);

export const toolResults = async (emu: Emulator, sid: string): Promise<any[]> => (await history(emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'user.tool_result');

export const resultText = (ev: any): string => ev.data.content.map((c: any) => c.text).join('');

/** True once no process has this id (a killed tool's process group is gone). */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
