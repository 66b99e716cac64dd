/**
 * Holds the board's state outside React and publishes it at most once per frame (100 ms): however fast events and
 * polls come, the board redraws at most ten times a second. React reads it with useSyncExternalStore.
 */
import { reduce, type Action, type BoardState } from './state';

export const FRAME_MS = 100;

export class BoardStore {
  private state: BoardState;
  private published: BoardState;
  private readonly listeners = new Set<() => void>();
  private timer?: ReturnType<typeof setTimeout>;
  private lastPublish = -Infinity;
  /** How many times a new state was published (what the board drew). */
  publishes = 0;

  constructor(
    initial: BoardState,
    private readonly frameMs = FRAME_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.state = initial;
    this.published = initial;
  }

  /** The latest state: key handlers and the feed read this, never a captured render value. */
  getState = (): BoardState => this.state;

  /** The state React renders: the one last published. */
  getSnapshot = (): BoardState => this.published;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch = (action: Action): void => {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    this.schedule();
  };

  /** Publishes what is pending now (a key press is drawn at once, not a frame later). */
  publishNow = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.publish();
  };

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastPublish + this.frameMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.publish();
    }, wait);
  }

  private publish(): void {
    if (this.published === this.state) return;
    this.lastPublish = this.now();
    this.published = this.state;
    this.publishes++;
    for (const l of this.listeners) l();
  }
}
