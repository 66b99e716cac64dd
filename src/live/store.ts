/**
 * Holds the view state outside React and publishes it at most once per frame, so a flood of deltas costs
 * one render per frame (~30 per second), not one per delta. React reads it with useSyncExternalStore.
 */
import { reduce, type Action, type ViewState } from './reducer';
import { ThrottledStore } from './throttled-store';

/**
 * 35, not 33: the clock is whole milliseconds, so two frames may be 34.x ms apart in real time, and 31 frames 33 ms
 * apart fit in one second; at 35 the busiest second holds at most 30.
 */
export const FRAME_MS = 35;

export class LiveStore extends ThrottledStore<ViewState, Action> {
  constructor(initial: ViewState, frameMs = FRAME_MS, now: () => number = Date.now) {
    super(initial, { reduce, frameMs, now });
  }

  /** The view wrote items up to `seq` to the terminal: they leave the state without a new frame. */
  flushed = (seq: number): void => {
    this.state = reduce(this.state, { type: 'flushed', through: seq });
  };
}
