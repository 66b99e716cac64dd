import { sleep } from '../async/sleep';

/** Time as the worker sees it; injected so tests and callers can shape it. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  delay(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export const systemClock: Clock = {
  now: Date.now,
  random: Math.random,
  delay: async (ms, signal) => {
    await sleep(ms, signal);
  },
};
