import type { Emulator } from '../../src/emulator/server';
import { emuEnv, tempConfigDir, type SvcResult } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';
import { background } from '../api/stream/helpers';
import type { Receiver } from './receiver';

/** `svc listen ARGS` running in-process, its stdout and stderr readable while it runs, until `stop()` (Ctrl-C). */
export interface Listening {
  done: Promise<SvcResult>;
  stop: () => Promise<SvcResult>;
  stdout: () => string;
  stderr: () => string;
  env: Record<string, string | undefined>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function startListen(
  emu: Emulator,
  args: string[],
  env: Record<string, string | undefined> = {},
  sleep: (ms: number) => Promise<void> = realSleep,
): Listening {
  const full = emuEnv(emu, { SVC_CONFIG_DIR: tempConfigDir(), ...env });
  const bg = background(['listen', ...args], full, { sleep });
  return {
    done: bg.run,
    env: full,
    stdout: () => bg.stdout.text,
    stderr: () => bg.stderr.text,
    stop: async () => {
      bg.stop();
      return bg.run;
    },
  };
}

/** The event bodies a receiver accepted for one session, in arrival order. */
export const acceptedEvents = (r: Receiver, sessionId?: string): any[] =>
  r.accepted.filter((x) => sessionId === undefined || x.json?.session_id === sessionId).map((x) => x.json.event);

/** Waits until the receiver has accepted `n` events of `type` for the session. */
export const waitAccepted = (r: Receiver, sessionId: string, type: string, n = 1, timeoutMs = 10_000): Promise<any[]> =>
  waitUntil(
    () => {
      const got = acceptedEvents(r, sessionId).filter((e) => e.type === type);
      return got.length >= n ? got : undefined;
    },
    `${n} ${type} of ${sessionId} accepted`,
    timeoutMs,
  );
