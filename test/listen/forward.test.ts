import { describe, expect, it } from 'vitest';
import { forwardTo } from '../../src/listen/forward';
import { useReceiver } from './receiver';

const receiver = useReceiver();
const delivery = { id: 'dlv_1', sessionId: 'sesn_1', eventId: 'sevt_1', type: 'agent.message', body: '{"session_id":"sesn_1","event":{}}' };

describe('--forward-to attempts', () => {
  it('a receiver that never answers fails the attempt as "timed out after N", retried, at every attempt', async () => {
    receiver.respond = () => 'hang';
    const dest = forwardTo({ url: receiver.url, secret: 'x'.repeat(32), userAgent: 'svc-test', concurrency: 1, now: Date.now, timeoutMs: 300 });
    const outcomes = [];
    for (const n of [1, 2]) outcomes.push(await dest.attempt(delivery, n, new AbortController().signal));
    expect(outcomes).toEqual([
      { kind: 'retry', reason: 'no answer: timed out after 300ms' },
      { kind: 'retry', reason: 'no answer: timed out after 300ms' },
    ]);
    expect(receiver.requests).toHaveLength(2);
  });
});
