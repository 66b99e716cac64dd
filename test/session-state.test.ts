import { describe, expect, it } from 'vitest';
import { matchesStatus, matchesThreadStatus, sessionState, sessionStateText, STATE_EXIT, threadStateText, worstExit } from '../src/session/state';

describe('the one derived state of a session', () => {
  it('R-SESS-25 an idle session stopped on an error is failed, with the error type when a view saw it', () => {
    const s = { status: 'idle', stop_reason: { type: 'error' } };
    expect(sessionStateText(s)).toBe('failed');
    expect(sessionStateText(s, { errorType: 'model_error' })).toBe('failed (model_error)');
    expect(STATE_EXIT[sessionState(s).label]).toBe(11);
  });

  it('an unfinished stop of a real service (budget_reached) is failed naming the stop', () => {
    expect(sessionState({ status: 'idle', stop_reason: { type: 'budget_reached' } })).toMatchObject({ label: 'failed', errorType: 'budget_reached' });
  });

  it('R-SESS-25 a session awaiting replies is waiting, counting them, and exits 13', () => {
    const s = { status: 'idle', requires_action: true, stop_reason: { type: 'requires_action', event_ids: ['e1', 'e2'] } };
    expect(sessionState(s)).toMatchObject({ label: 'waiting', awaited: ['e1', 'e2'], detail: '2 replies' });
    expect(sessionStateText(s, { waitingOn: 'confirmation' })).toBe('waiting (2 confirmations)');
    expect(STATE_EXIT.waiting).toBe(13);
  });

  it('R-SESS-22 an idle interrupted session is interrupted, noting input held behind it, and exits 12', () => {
    const s = { status: 'idle', interrupted: true, stop_reason: { type: 'interrupted' } };
    expect(sessionStateText(s)).toBe('interrupted');
    expect(sessionStateText(s, { pendingInputs: 2 })).toBe('interrupted (input held)');
    expect(STATE_EXIT.interrupted).toBe(12);
  });

  it('R-SESS-22 a continued session with nothing queued is idle though its last stop was the interrupt; without the flag the stop says it', () => {
    expect(sessionStateText({ status: 'idle', interrupted: false, stop_reason: { type: 'interrupted' } })).toBe('idle');
    expect(sessionStateText({ status: 'idle', stop_reason: { type: 'interrupted' } })).toBe('interrupted');
  });

  it('R-SESS-27 a session stopping after an interrupt is still running; a continue pending is running too', () => {
    expect(sessionStateText({ status: 'running', interrupted: true, stopping: true })).toBe('running (stopping)');
    expect(sessionStateText({ status: 'idle', interrupted: true, continue_pending: true })).toBe('running (continue pending)');
  });

  it('plain statuses keep their word; terminated beats every flag', () => {
    expect(sessionStateText({ status: 'idle', stop_reason: { type: 'end_turn' } })).toBe('idle');
    expect(sessionStateText({ status: 'rescheduling' })).toBe('rescheduling');
    expect(sessionStateText({ status: 'terminated', interrupted: true, stop_reason: { type: 'error' } })).toBe('terminated');
  });

  it('--status matches the service status or the derived state', () => {
    const failed = { status: 'idle', stop_reason: { type: 'error' } };
    expect(matchesStatus(failed, 'idle')).toBe(true);
    expect(matchesStatus(failed, 'failed')).toBe(true);
    expect(matchesStatus(failed, 'waiting')).toBe(false);
  });

  it('the worst of many exit codes: failed over waiting over interrupted over a timeout', () => {
    expect(worstExit([0, 12, 13])).toBe(13);
    expect(worstExit([12, 11, 124])).toBe(11);
    expect(worstExit([0, 124, 12])).toBe(12);
    expect(worstExit([0, 0])).toBe(0);
  });

  it('a thread reads as a session where its status is one (interrupted), else as the service names it; cancelled takes canceled', () => {
    expect(threadStateText({ status: 'idle', interrupted: true })).toBe('interrupted');
    expect(threadStateText({ status: 'running' })).toBe('running');
    expect(threadStateText({ status: 'cancelled' })).toBe('cancelled');
    expect(threadStateText({ status: 'canceled', interrupted: true })).toBe('canceled (interrupted)');
    expect(matchesThreadStatus({ status: 'canceled' }, 'cancelled')).toBe(true);
    expect(matchesThreadStatus({ status: 'idle', interrupted: true }, 'interrupted')).toBe(true);
    expect(matchesThreadStatus({ status: 'idle', interrupted: true }, 'idle')).toBe(true);
    expect(matchesThreadStatus({ status: 'running' }, 'interrupted')).toBe(false);
  });
});
