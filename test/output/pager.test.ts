import { describe, expect, it } from 'vitest';
import { longerThanScreen, pagerFor } from '../../src/output/pager';

const terminal = { isTTY: true, write: () => true, once: () => undefined };
const pipe = { ...terminal, isTTY: false };

describe('the pager svc chooses', () => {
  it('SVC_PAGER, else PAGER, else less with LESS=FRX unless LESS is set', () => {
    expect(pagerFor({ env: { SVC_PAGER: 'most', PAGER: 'more' }, stdout: terminal }, true)?.command).toBe('most');
    expect(pagerFor({ env: { PAGER: 'more' }, stdout: terminal }, true)?.command).toBe('more');
    const dflt = pagerFor({ env: {}, stdout: terminal }, true);
    expect(dflt?.command).toBe('less');
    expect(dflt?.env.LESS).toBe('FRX');
    expect(pagerFor({ env: { LESS: '-S' }, stdout: terminal }, true)?.env.LESS).toBe('-S');
  });

  it('none with --no-pager, an empty SVC_PAGER (even with PAGER set), cat, CI, or output that is not a terminal', () => {
    expect(pagerFor({ env: {}, stdout: terminal }, false)).toBeUndefined();
    expect(pagerFor({ env: { SVC_PAGER: '', PAGER: 'less' }, stdout: terminal }, true)).toBeUndefined();
    expect(pagerFor({ env: { PAGER: 'cat' }, stdout: terminal }, true)).toBeUndefined();
    expect(pagerFor({ env: { CI: 'true' }, stdout: terminal }, true)).toBeUndefined();
    expect(pagerFor({ env: {}, stdout: pipe }, true)).toBeUndefined();
  });

  it('pages text that does not fit the screen with a line left for the prompt, counting wrapped lines', () => {
    const screen = { rows: 5, columns: 10 };
    expect(longerThanScreen('a\nb\nc\nd\n', screen)).toBe(false);
    expect(longerThanScreen('a\nb\nc\nd\ne\n', screen)).toBe(true);
    expect(longerThanScreen(`${'x'.repeat(25)}\nb\nc\n`, screen)).toBe(true);
    expect(longerThanScreen('界'.repeat(13) + '\nb\nc\n', screen)).toBe(true);
    expect(longerThanScreen('x'.repeat(13) + '\nb\nc\n', screen)).toBe(false);
    expect(longerThanScreen('a\n'.repeat(100), {})).toBe(false);
  });
});
