/** Thrown at a cancelled execution's next step boundary, or at once to whatever it waits on. */
export class Cancelled extends Error {}

/** `p`, marked handled: its awaiter still sees the rejection, but one nobody awaits cannot end the process. */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** One execution (a turn of the coordinator, or a child thread): cancelled at its next step boundary, or at once while it waits. */
export class Execution {
  cancelled = false;
  private readonly onCancel = new Set<() => void>();

  cancel(): void {
    this.cancelled = true;
    for (const f of this.onCancel) f();
  }

  async step(ms: number): Promise<void> {
    await new Promise<void>((r) => setTimeout(r, ms).unref());
    if (this.cancelled) throw new Cancelled();
  }

  /** `p`, or Cancelled as soon as the execution is cancelled. */
  wait<T>(p: Promise<T>): Promise<T> {
    const waited = this.cancelled
      ? Promise.reject(new Cancelled())
      : new Promise<T>((resolve, reject) => {
          const stop = () => reject(new Cancelled());
          this.onCancel.add(stop);
          p.then(resolve, reject).finally(() => this.onCancel.delete(stop));
        });
    return quiet(waited);
  }
}
