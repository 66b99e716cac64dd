import type { ChildProcess } from 'node:child_process';

/*
 * Children that run in svc's place on the terminal (an extension, a `!` alias, the pager). A signal svc gets is
 * theirs: it is forwarded to them, svc waits for their end, and a second signal is forwarded too rather than exiting
 * past a child still running (the launcher, src/startup/launch.ts, asks `holdsExit` before it exits on one). Ctrl-C on a terminal the child
 * shares already reached it, with svc, through the terminal's process group: SIGINT is not sent twice then.
 */

const held = new Map<ChildProcess, boolean>();

/** A signal's name from an abort reason: bin/ aborts with the signal's name; a test's plain abort is a Ctrl-C. */
const signalOf = (reason: unknown): NodeJS.Signals => (reason === 'SIGTERM' || reason === 'SIGHUP' || reason === 'SIGINT' ? reason : 'SIGINT');

function forward(child: ChildProcess, sharesTerminal: boolean, signal: NodeJS.Signals): void {
  if (signal === 'SIGINT' && sharesTerminal) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

/**
 * Holds `child` in the foreground until it ends: `abort` (svc's signal) is forwarded to it. `sharesTerminal`: the child
 * reads the same terminal, so Ctrl-C reached it already. Returns `release`, called when the child has ended.
 */
export function holdForeground(child: ChildProcess, abort: AbortSignal | undefined, sharesTerminal: boolean): () => void {
  held.set(child, sharesTerminal);
  const onAbort = () => forward(child, sharesTerminal, signalOf(abort?.reason));
  if (abort?.aborted) onAbort();
  else abort?.addEventListener('abort', onAbort, { once: true });
  return () => {
    held.delete(child);
    abort?.removeEventListener('abort', onAbort);
  };
}

/** A repeated signal (bin/): forwarded to the children still held; true when one is, so svc waits for it instead of exiting. */
export function holdsExit(signal: NodeJS.Signals): boolean {
  for (const [child, sharesTerminal] of held) forward(child, sharesTerminal, signal);
  return held.size > 0;
}

/** The exit code of a child that ran in svc's place: never 0 once svc was signalled (130, as for any interruption). */
export function foregroundExit(code: number, abort: AbortSignal | undefined): number {
  return abort?.aborted && code === 0 ? 130 : code;
}
