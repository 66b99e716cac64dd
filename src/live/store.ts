/**
 * Holds the view state outside React and publishes it at most once per frame, so a flood of deltas costs
 * one render per frame (~30 per second), not one per delta. React reads it with useSyncExternalStore.
 */
import { reduce, type Action, type ViewState } from './reducer';

export const FRAME_MS = 33;

export class LiveStore {
  private state: ViewState;
  private published: ViewState;
  private readonly listeners = new Set<() => void>();
  private timer?: ReturnType<typeof setTimeout>;
  private lastPublish = -Infinity;
  private closed = false;

  constructor(
    initial: ViewState,
    private readonly frameMs = FRAME_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.state = initial;
    this.published = initial;
  }

  /** The latest state (key handlers read this, never a captured render value). */
  getState = (): ViewState => this.state;

  /** The state React renders: the one last published. */
  getSnapshot = (): ViewState => this.published;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch = (action: Action): void => {
    this.state = reduce(this.state, action);
    this.schedule();
  };

  /** The view wrote items up to `seq` to the terminal: they leave the state without a new frame. */
  flushed = (seq: number): void => {
    this.state = reduce(this.state, { type: 'flushed', through: seq });
  };

  /** Publishes what is pending now (before leaving the view, so the last events are drawn). */
  publishNow = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.publish();
  };

  close(): void {
    this.closed = true;
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
    this.lastPublish = this.now();
    if (this.published === this.state) return;
    this.published = this.state;
    for (const l of this.listeners) l();
  }
}
