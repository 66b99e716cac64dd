import { describe, expect, it } from 'vitest';
import { didYouMean, similar } from '../../src/text/similar';

const STATES = ['idle', 'running', 'rescheduling', 'terminated', 'failed', 'interrupted', 'waiting'];

describe('did you mean', () => {
  it('names the closest value for a typo, a swap or a missing letter', () => {
    expect(didYouMean('runing', STATES)).toBe(' (did you mean running?)');
    expect(didYouMean('fialed', STATES)).toBe(' (did you mean failed?)');
    expect(didYouMean('waitng', STATES)).toBe(' (did you mean waiting?)');
  });

  it('says nothing when no value is close, and names every value equally close', () => {
    expect(didYouMean('no-such-state', STATES)).toBe('');
    expect(similar('ab', ['ax', 'xb', 'abcdef'])).toEqual(['ax', 'xb']);
  });
});
