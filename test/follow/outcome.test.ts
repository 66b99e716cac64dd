import { describe, expect, it } from 'vitest';
import { interruptedLine, outcomeOf, outcomeOfStatus, TurnErrors, type Settled } from '../../src/follow/outcome';
import { exitCodeFor, SessionFailedError, SessionInterruptedError, SessionWaitingError } from '../../src/runtime/errors';
import { TurnWatch } from '../../src/follow/turn-end';
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

  it('a turn the live view sees stop unfinished (refusal) ends idle but exits 11 through its failure, as without a terminal', () => {
    const w = new TurnWatch('s1');
    expect(w.see(status('idle', { type: 'refusal' }))).toBe('idle');
    expect(w.failure()).toBeInstanceOf(SessionFailedError);
    expect(w.failure()?.message).toContain('stop_reason refusal, session s1');
    expect(w.see(status('running'))).toBeUndefined();
    expect(w.see(status('idle', { type: 'end_turn' }))).toBe('idle');
    expect(w.failure()).toBeUndefined();
  });

  it('the live view ends an interrupted turn as interrupted, with exit 12 naming `svc sessions continue`', () => {
    const w = new TurnWatch('s1');
    expect(w.see(status('idle', { type: 'interrupted' }))).toBe('interrupted');
    const e = w.failure();
    expect(e).toBeInstanceOf(SessionInterruptedError);
    expect(exitCodeFor(e)).toBe(12);
    expect(e?.message).toContain('`svc sessions continue s1`');
  });

  it('outcomeOfStatus: only idle or terminated statuses settle, in the derived state a session read would give', () => {
    expect(outcomeOfStatus('s1', status('running'))).toBeUndefined();
    expect(outcomeOfStatus('s1', event('agent.message', text('x')))).toBeUndefined();
    expect(outcomeOfStatus('s1', status('idle', { type: 'end_turn' }))).toMatchObject({ settled: true, state: { label: 'idle' }, errorStop: false });
    expect(outcomeOfStatus('s1', status('idle', { type: 'error' }))).toMatchObject({ settled: true, errorStop: true, state: { label: 'failed' } });
    expect(outcomeOfStatus('s1', status('idle', { type: 'interrupted' }))).toMatchObject({ settled: true, state: { label: 'interrupted' } });
    expect(outcomeOfStatus('s1', status('terminated'))).toMatchObject({ settled: true, state: { label: 'terminated' } });
    expect(new TurnErrors().verdict(outcomeOfStatus('s1', status('idle', { type: 'error' }))!)?.message).toBe(
      'the session turn ended in session.error (session s1)',
    );
    expect(new TurnErrors().verdict(outcomeOfStatus('s1', status('terminated'))!)?.message).toBe('session s1 was terminated');
  });

  it('an interrupted session object settles at once: exit 12, and with input held the line says it waits behind the interrupt', () => {
    const s = { id: 's1', status: 'idle', interrupted: true, stop_reason: { type: 'interrupted' } };
    const plain = new TurnErrors().verdict(outcomeOf(s));
    expect(plain).toBeInstanceOf(SessionInterruptedError);
    expect((plain as SessionInterruptedError).held).toBe(false);
    const held = new TurnErrors().verdict(outcomeOf(s, { pendingInputs: 2 }));
    expect((held as SessionInterruptedError).held).toBe(true);
    expect(held?.message).toBe('session s1 is interrupted and input waits behind the interrupt: `svc sessions continue s1` resumes it and runs the input');
    // A session.error seen in the turn outweighs the interrupt that followed it (11 is worse than 12).
    const errors = new TurnErrors();
    errors.see(event('session.error', { error_type: 'model_error', message: 'boom' }));
    expect(exitCodeFor(errors.verdict(outcomeOf(s)))).toBe(11);
  });
});

describe('exit 13 for a turn awaiting replies, 11 for an unfinished stop (TurnErrors.verdict)', () => {
  const failure = (errors: TurnErrors, end: ReturnType<typeof outcomeOf>): SessionFailedError => {
    const e = errors.verdict(end);
    if (!e) throw new Error('no failure');
    return e as SessionFailedError;
  };
  const waiting = (...ids: string[]) => outcomeOf({ id: 's1', status: 'idle', stop_reason: { type: 'requires_action', event_ids: ids } });

  it('names one command per awaited event, by the kind seen: confirm for a tool use that asks, tool-result for a custom tool use', () => {
    const errors = new TurnErrors();
    expect(failure(errors, waiting('e1'))).toBeInstanceOf(SessionWaitingError);
    expect(exitCodeFor(failure(errors, waiting('e1')))).toBe(13);
    errors.see(event('agent.tool_use', { name: 'bash', input: {}, permission: 'ask' }, { id: 'e1' }));
    errors.see(event('agent.custom_tool_use', { name: 'lookup', input: {} }, { id: 'e2' }));
    expect(failure(errors, waiting('e1')).message).toBe('session s1 is waiting for a reply: answer with `svc sessions confirm s1 e1 --allow` (or --deny)');
    expect(failure(errors, waiting('e1', 'e2')).message).toBe(
      'session s1 is waiting for 2 replies: answer with `svc sessions confirm s1 e1 --allow` (or --deny); `svc sessions tool-result s1 e2 --text "…"`',
    );
  });

  it('an awaited event of unknown kind gets both verbs, still with the real IDs', () => {
    const m = failure(new TurnErrors(), waiting('e9')).message;
    expect(m).toContain('`svc sessions confirm s1 e9 --allow` (or --deny) for a tool confirmation');
    expect(m).toContain('`svc sessions tool-result s1 e9 --text "…"` for a custom tool call');
  });

  it('stop reasons retries_exhausted, budget_reached and refusal settle as failures with a recovery hint; end_turn does not fail', () => {
    for (const type of ['retries_exhausted', 'budget_reached', 'refusal']) {
      const e = failure(new TurnErrors(), outcomeOf({ id: 's1', status: 'idle', stop_reason: { type } }));
      expect(e).toBeInstanceOf(SessionFailedError);
      expect(e.message).toMatch(new RegExp(`^the session turn stopped unfinished: .* \\(stop_reason ${type}, session s1\\)$`));
      expect(e.hint).toBeTruthy();
    }
    expect(() => new TurnErrors().finish(outcomeOf({ id: 's1', status: 'idle', stop_reason: { type: 'end_turn' } }))).not.toThrow();
  });
});

describe('lines meant to be pasted (issue 45 items 14, 15)', () => {
  const hostile = 's1;touch${IFS}x';
  const waiting = (ids: string[]) =>
    ({ settled: true, sessionId: hostile, state: { label: 'waiting', awaited: ids }, errorStop: false, from: {} }) as unknown as Settled;

  it('item 14: a session or event ID with shell metacharacters is single-quoted in every suggested command', () => {
    expect(interruptedLine(hostile, true)).toContain("`svc sessions continue 's1;touch${IFS}x'`");
    const line = new TurnErrors().verdict(waiting(["e'1"]))!.message;
    expect(line).toContain(`\`svc sessions confirm 's1;touch\${IFS}x' 'e'\\''1' --allow\``);
    expect(line).not.toMatch(/svc sessions \S+ s1;/);
    // A plain ID stays as it is.
    expect(interruptedLine('sesn_01ABC', false)).toContain('`svc sessions continue sesn_01ABC`');
  });

  it('item 15: 20 000 awaited event IDs make a line of a few commands and a count, not megabytes', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `sevt_${String(i).padStart(26, '0')}`);
    const line = new TurnErrors().verdict(waiting(ids))!.message;
    expect(line.length).toBeLessThan(1_500);
    expect(line).toContain('is waiting for 20000 replies');
    expect(line).toContain(ids[2]);
    expect(line).not.toContain(ids[3]);
    expect(line).toMatch(/and 19997 more \(`svc sessions get .* -o json` lists their event IDs under stop_reason\)$/);
  });
});
