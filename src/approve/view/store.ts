import { ThrottledStore } from '../../live/throttled-store';
import { reduce, type Action, type QueueState } from '../queue';

/** The queue's state outside React, published at most once per frame (as svc top's board). */
export class QueueStore extends ThrottledStore<QueueState, Action> {
  constructor(initial: QueueState, frameMs = 100, now: () => number = Date.now) {
    super(initial, { reduce, frameMs, now, skipNoops: true });
  }
}
