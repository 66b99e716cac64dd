/**
 * Holds the view state outside React and publishes it at most once per frame, so a flood of deltas costs
 * one render per frame (~30 per second), not one per delta. React reads it with useSyncExternalStore.
 */
import { reduce, type Action, type ViewState } from './reducer';
import { ThrottledStore } from './throttled-store';

export const FRAME_MS = 33;

export class LiveStore extends ThrottledStore<ViewState, Action> {
  constructor(initial: ViewState, frameMs = FRAME_MS, now: () => number = Date.now) {
    super(initial, { reduce, frameMs, now });
  }

  /** The view wrote items up to `seq` to the terminal: they leave the state without a new frame. */
  flushed = (seq: number): void => {
    this.state = reduce(this.state, { type: 'flushed', through: seq });
  };
}
