import { peerWaitMs } from '../api/backoff';

/**
 * One pause shared by every worker of a bulk command: a 429's `Retry-After` holds all of them, not only the worker
 * that was told. `hold` is the clients' sleep; `ready` is awaited before each new item.
 */
export class SharedPause {
  private current?: { end: number; done: Promise<void> };

  constructor(
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly now: () => number,
  ) {}

  /** Pauses everyone for at least `ms` (a longer pause already running is kept), and waits it out. */
  async hold(asked: number): Promise<void> {
    // The client asks for clamped waits already; a pause that holds every worker is bounded here too.
    const ms = peerWaitMs(asked, 0);
    const end = this.now() + ms;
    if (!this.current || end > this.current.end) {
      const pause = { end, done: this.sleep(ms) };
      this.current = pause;
      void pause.done.finally(() => {
        if (this.current === pause) this.current = undefined;
      });
    }
    await this.ready();
  }

  /** Resolves once no pause is running. */
  async ready(): Promise<void> {
    while (this.current) await this.current.done;
  }
}
