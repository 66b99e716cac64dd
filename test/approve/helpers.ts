import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { Emulator } from '../../src/emulator/server';
import type { Io } from '../../src/runtime/io';
import { call } from '../helpers/emulator';
import { Capture, emuEnv, tempConfigDir, type SvcResult } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';

/** A folder for a test's policy, state and audit files. */
export const workDir = () => mkdtempSync(join(tmpdir(), 'svc-approve-'));

export function writePolicy(dir: string, text: string, name = 'policy.yaml'): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The audit lines written so far. */
export function auditLines(path: string): any[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** `svc ARGS` in-process with real waits, until `stop()` (Ctrl-C); `now` is the command's clock. */
export function startSvc(emu: Emulator, args: string[], o: { now?: () => number; cwd?: string; env?: Record<string, string>; stdoutTTY?: boolean } = {}) {
  const abort = new AbortController();
  const stdout = new Capture();
  const stderr = new Capture();
  stdout.isTTY = o.stdoutTTY;
  const stdin = new PassThrough();
  stdin.end('');
  const io: Io = {
    stdin,
    stdout,
    stderr,
    env: emuEnv(emu, { SVC_CONFIG_DIR: tempConfigDir(), ...o.env }),
    cwd: o.cwd ?? process.cwd(),
    signal: abort.signal,
    now: o.now,
    startUpdateCheck: () => {},
  };
  const done: Promise<SvcResult> = main(args, io).then((code) => ({ code, stdout: stdout.text, stderr: stderr.text }));
  return {
    done,
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    stop: async () => {
      abort.abort();
      return done;
    },
  };
}

/** One session per call, each waiting on that tool confirmation; resolves once every one waits. */
export async function waitingOn(
  emu: Emulator,
  calls: Array<{ tool: string; input: unknown; metadata?: Record<string, string> }>,
  agentId?: string,
): Promise<string[]> {
  const agent =
    agentId ?? (await call(emu, 'POST', '/v1/agents', { body: { name: `approver-${Math.random().toString(36).slice(2)}`, model: 'scripted-1' } })).body.id;
  const ids: string[] = [];
  for (const c of calls) {
    const s = (await call(emu, 'POST', '/v1/sessions', { body: { agent_id: agent, ...(c.metadata ? { metadata: c.metadata } : {}) } })).body;
    const text = `/confirm ${c.tool} ${JSON.stringify(c.input)}`;
    const r = await call(emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] },
    });
    if (r.status >= 300) throw new Error(`send: ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(s.id);
  }
  for (const id of ids) await waitUntil(async () => (await call(emu, 'GET', `/v1/sessions/${id}`)).body.requires_action === true, `${id} waiting`, 20_000);
  return ids;
}

/** The session's history. */
export async function history(emu: Emulator, id: string): Promise<any[]> {
  return (await call(emu, 'GET', `/v1/sessions/${id}/events?page_size=1000`)).body.items;
}

/** The `user.tool_confirmation` events of a session's history. */
export async function confirmations(emu: Emulator, id: string): Promise<any[]> {
  return (await history(emu, id)).filter((e) => e.type === 'user.tool_confirmation');
}
