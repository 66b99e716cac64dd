import { spawn } from 'node:child_process';
import { write, type OutStream } from '../runtime/io';
import { lines } from '../worker/lines';
import { toolEnv } from '../worker/index';
import { ATTEMPT_TIMEOUT_MS, type Delivery, type Destination, type Outcome } from './destination';

export interface ExecOptions {
  /** Run by /bin/sh -c, as a shell line. */
  command: string;
  /** svc's own environment: CMD gets it without any SVC_* variable (the API key among them). */
  env: Record<string, string | undefined>;
  cwd: string;
  concurrency: number;
  /** Where CMD's standard output and error go, line by line (svc's stdout carries the delivery results). */
  stderr: OutStream;
  timeoutMs?: number;
  killGraceMs?: number;
}

/** Longest line of CMD's output copied; the rest of a longer one is dropped. */
const MAX_LINE_BYTES = 64 * 1024;
/** How long the groups CMD left running get to end on SIGTERM when svc stops, before SIGKILL. */
const STOP_GRACE_MS = 2_000;

/**
 * `--exec CMD`: CMD once per event, the delivery's JSON on standard input, `SVC_SESSION_ID`, `SVC_EVENT_TYPE`,
 * `SVC_EVENT_ID` and `SVC_DELIVERY_ID` in its environment. Exit 0 accepts the event. Any other exit, a signal, or
 * running past the attempt timeout is retried with back-off like a receiver's 5xx (same SVC_DELIVERY_ID): a command
 * that fails for a moment (its own network) must not lose the event, and one that wants to drop an event exits 0.
 */
export function execCommand(o: ExecOptions): Destination {
  const base = toolEnv(o.env);
  const timeout = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const grace = o.killGraceMs ?? 5_000;
  /** Process groups of CMDs started (each its own): what they left running is ended when svc stops. */
  const groups = new Set<number>();
  return {
    name: o.command,
    concurrency: o.concurrency,
    async close(): Promise<void> {
      const left = [...groups].filter((pid) => group(pid, 'SIGTERM'));
      groups.clear();
      for (let waited = 0; waited < STOP_GRACE_MS && left.some((pid) => group(pid, 0)); waited += 50) await new Promise((r) => setTimeout(r, 50));
      for (const pid of left) group(pid, 'SIGKILL');
    },
    attempt(d: Delivery, attempt: number, signal: AbortSignal): Promise<Outcome> {
      const env = {
        ...base,
        SVC_SESSION_ID: d.sessionId,
        SVC_EVENT_TYPE: d.type,
        SVC_EVENT_ID: d.eventId,
        SVC_DELIVERY_ID: d.id,
        SVC_DELIVERY_ATTEMPT: String(attempt),
      };
      // Its own process group, so a timeout or Ctrl-C ends everything CMD started.
      const child = spawn('/bin/sh', ['-c', o.command], { cwd: o.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      for (const pid of groups) if (!group(pid, 0)) groups.delete(pid);
      if (child.pid !== undefined) groups.add(child.pid);
      // Copied for as long as anything CMD started writes; the outcome does not wait for it.
      void copy(child.stdout!, o.stderr);
      void copy(child.stderr!, o.stderr);
      // CMD may exit without reading its input: a closed pipe is not a failed delivery.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(d.body + '\n');
      let why: string | undefined;
      const end = (reason: string) => {
        why ??= reason;
        group(child.pid, 'SIGTERM');
        setTimeout(() => group(child.pid, 'SIGKILL'), grace).unref();
      };
      const timer = setTimeout(() => end(`ran past ${Math.round(timeout / 1000)}s`), timeout);
      const onAbort = () => end('abandoned');
      signal.addEventListener('abort', onAbort, { once: true });
      return new Promise<Outcome>((resolve) => {
        child.once('error', (e) => finish({ kind: 'retry', reason: `cannot start /bin/sh: ${(e as NodeJS.ErrnoException).code ?? e.message}` }));
        child.once('exit', (code, sig) => {
          if (why) return finish({ kind: 'retry', reason: why });
          if (code === 0) return finish({ kind: 'accepted' });
          finish({ kind: 'retry', reason: sig ? `ended by ${sig}` : `exit ${code}` });
        });
        // Settled when CMD exits, not when its output closes: a child it left in the background may hold that open.
        const finish = (outcome: Outcome) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
      });
    },
  };
}

/** Signals a process group (0: only asks whether it still exists); false when the group is gone. */
function group(pid: number | undefined, sig: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

async function copy(stream: NodeJS.ReadableStream & AsyncIterable<Buffer>, to: OutStream): Promise<void> {
  try {
    for await (const line of lines(stream, MAX_LINE_BYTES)) await write(to, line.text + '\n');
  } catch {
    // the pipe broke with CMD
  }
}
