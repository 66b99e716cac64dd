/**
 * Holds the board's state outside React and publishes it at most once per frame (100 ms): however fast events and
 * polls come, the board redraws at most ten times a second. React reads it with useSyncExternalStore.
 */
import { ThrottledStore } from '../live/throttled-store';
import { reduce, type Action, type BoardState } from './state';

export const FRAME_MS = 100;

export class BoardStore extends ThrottledStore<BoardState, Action> {
  constructor(initial: BoardState, frameMs = FRAME_MS, now: () => number = Date.now) {
    // An action that changes nothing draws nothing; a key press is drawn at once through publishNow.
    super(initial, { reduce, frameMs, now, skipNoops: true });
  }

  /** Drops the pending frame and the listeners (the board is gone); the feed's late actions still schedule. */
  override close(): void {
    this.cancel();
    this.listeners.clear();
  }
}
