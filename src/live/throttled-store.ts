/**
 * A state store that batches updates and publishes at most once per frame, so a flood of actions costs one render per
 * frame, not one per action. React reads it with useSyncExternalStore. The live view (src/live/store.ts) and the fleet
 * board (src/top/store.ts) are both this store over their own reducer and frame.
 */

export interface ThrottledStoreOptions<S, A> {
  reduce: (state: S, action: A) => S;
  /** The shortest time between two published frames. */
  frameMs: number;
  now?: () => number;
  /**
   * When set, an action that leaves the state as it was starts no frame, and a publish with nothing new does not
   * count as a frame (the board). Unset, every action schedules a publish and every publish starts a frame (the live view).
   */
  skipNoops?: boolean;
}

export class ThrottledStore<S, A> {
  protected state: S;
  private published: S;
  protected readonly listeners = new Set<() => void>();
  private timer?: ReturnType<typeof setTimeout>;
  private lastPublish = -Infinity;
  private closed = false;
  private readonly reducer: (state: S, action: A) => S;
  private readonly frameMs: number;
  private readonly now: () => number;
  private readonly skipNoops: boolean;
  /** How many times a new state was published (what the view drew). */
  publishes = 0;

  constructor(initial: S, options: ThrottledStoreOptions<S, A>) {
    this.state = initial;
    this.published = initial;
    this.reducer = options.reduce;
    this.frameMs = options.frameMs;
    this.now = options.now ?? Date.now;
    this.skipNoops = options.skipNoops ?? false;
  }

  /** The latest state (key handlers read this, never a captured render value). */
  getState = (): S => this.state;

  /** The state React renders: the one last published. */
  getSnapshot = (): S => this.published;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch = (action: A): void => {
    const next = this.reducer(this.state, action);
    if (this.skipNoops && next === this.state) return;
    this.state = next;
    this.schedule();
  };

  /** Publishes what is pending now, without waiting for the frame. */
  publishNow = (): void => {
    this.cancel();
    this.publish();
  };

  /** Stops publishing on a timer: later actions change the state but schedule no frame. */
  close(): void {
    this.closed = true;
    this.cancel();
  }

  /** Drops a scheduled publish. */
  protected cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    const wait = Math.max(0, this.lastPublish + this.frameMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.publish();
    }, wait);
  }

  private publish(): void {
    if (!this.skipNoops) this.lastPublish = this.now();
    if (this.published === this.state) return;
    if (this.skipNoops) this.lastPublish = this.now();
    this.published = this.state;
    this.publishes++;
    for (const l of this.listeners) l();
  }
}
