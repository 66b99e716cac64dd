/** Long polls parked per environment until a row may be claimable, the wait runs out, or the client leaves. */
export class Waiters {
  private readonly byKey = new Map<string, Set<() => void>>();
  private closed = false;

  /** Resolves on `wake(key)`, after `ms`, on abort, or on close; always cleans up after itself. */
  wait(key: string, ms: number, signal: AbortSignal): Promise<void> {
    if (this.closed || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.byKey.get(key) ?? new Set();
      this.byKey.set(key, set);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      set.add(done);
    });
  }

  wake(key: string): void {
    for (const done of [...(this.byKey.get(key) ?? [])]) done();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    for (const key of [...this.byKey.keys()]) this.wake(key);
  }
}
