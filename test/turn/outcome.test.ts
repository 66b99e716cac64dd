import { describe, expect, it } from 'vitest';
import { outcomeOfStatus } from '../../src/turn/outcome';
import { TurnWatch } from '../../src/turn/watch';
import type { SessionEvent } from '../../src/wire/events';
import { ev, text } from '../live/fixtures';

const event = (type: string, data?: Record<string, unknown>, extra: Partial<SessionEvent> = {}): SessionEvent => {
  const it = ev(type, data, extra);
  if (it.kind !== 'event') throw new Error('not an event');
  return it.event;
};
const status = (s: string, stop?: Record<string, unknown>) => event('session.status', { status: s, ...(stop ? { stop_reason: stop } : {}) });

describe('how a turn ends (live view and run)', () => {
  it('R-EVT-20 R-EVT-21 an idle after a session.error ends as error and names it; a running status starts a clean turn', () => {
    const w = new TurnWatch();
    expect(w.see(event('session.error', { error_type: 'model_overloaded_error', message: 'busy' }))).toBeUndefined();
    expect(w.see(status('idle', { type: 'end_turn' }))).toBe('error');
    expect(w.error).toEqual({ type: 'model_overloaded_error', message: 'busy' });
    expect(w.see(status('running'))).toBeUndefined();
    expect(w.error).toBeUndefined();
    expect(w.see(status('idle', { type: 'end_turn' }))).toBe('idle');
  });

  it('R-EVT-20 an idle awaiting a reply is not an end; termination is; the last coordinator message is kept', () => {
    const w = new TurnWatch();
    w.see(event('agent.message', text('first')));
    w.see(event('agent.message', text('child'), { session_thread_id: 'th_1' }));
    w.see(event('agent.message', { content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }] }));
    expect(w.message).toBe('ab');
    expect(w.see(status('idle', { type: 'requires_action', event_ids: ['e1'] }))).toBeUndefined();
    expect(w.see(status('terminated'))).toBe('terminated');
  });

  it('outcomeOfStatus: only idle or terminated statuses settle, with the failure a session read would give', () => {
    expect(outcomeOfStatus('s1', status('running'))).toBeUndefined();
    expect(outcomeOfStatus('s1', event('agent.message', text('x')))).toBeUndefined();
    expect(outcomeOfStatus('s1', status('idle', { type: 'end_turn' }))).toEqual({ settled: true, failure: undefined, errorStop: false });
    expect(outcomeOfStatus('s1', status('idle', { type: 'error' }))).toMatchObject({ settled: true, errorStop: true, failure: expect.stringContaining('session.error (session s1)') });
    expect(outcomeOfStatus('s1', status('terminated'))).toEqual({ settled: true, failure: 'session s1 was terminated' });
  });
});
