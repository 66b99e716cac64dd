import { spawn } from 'node:child_process';
import { write, type OutStream } from '../io';
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
/** How long CMD's output may still arrive after it exited. */
const OUTPUT_WAIT_MS = 1_000;

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
  return {
    name: o.command,
    concurrency: o.concurrency,
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
      const copied = Promise.all([copy(child.stdout!, o.stderr), copy(child.stderr!, o.stderr)]);
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
        const finish = (outcome: Outcome) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          // What CMD printed goes out before its outcome is reported, unless something it left running holds the pipes.
          const held = new Promise<void>((r) => setTimeout(r, OUTPUT_WAIT_MS).unref());
          void Promise.race([copied, held]).then(() => resolve(outcome));
        };
      });
    },
  };
}

function group(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    // the group is gone
  }
}

async function copy(stream: NodeJS.ReadableStream & AsyncIterable<Buffer>, to: OutStream): Promise<void> {
  try {
    for await (const line of lines(stream, MAX_LINE_BYTES)) await write(to, line.text + '\n');
  } catch {
    // the pipe broke with CMD
  }
}
