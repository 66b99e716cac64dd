// tier: e2e (the pager tests start real programs through svc's own spawn)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longerThanScreen, pagerFor, showText } from '../../src/output/pager';

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

describe('the pager program (issue 45 item 26)', () => {
  it('is found in absolute PATH folders only: a pager in bin/ or . of a relative entry never runs, the text is written', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-pager-'));
    mkdirSync(join(cwd, 'bin'));
    for (const at of [join(cwd, 'bin', 'mypager'), join(cwd, 'mypager')]) {
      writeFileSync(at, `#!/bin/sh\ntouch '${join(cwd, 'ran')}'\n`);
      chmodSync(at, 0o755);
    }
    let written = '';
    const screen = { isTTY: true, rows: 3, columns: 80, write: (t: string | Uint8Array) => ((written += String(t)), true), once: () => undefined };
    const here = process.cwd();
    process.chdir(cwd);
    try {
      for (const [PATH, SVC_PAGER] of [
        ['bin:/usr/bin:/bin', 'mypager'],
        ['.:/usr/bin:/bin', 'mypager -x'],
      ]) {
        await showText(screen, 'a\nb\nc\nd\n', pagerFor({ env: { PATH, SVC_PAGER }, stdout: screen }, true));
      }
      // A line only a shell runs gets sh with PATH's absolute folders alone: sh finds no mypager either.
      await showText(
        screen,
        'a\nb\nc\nd\n',
        pagerFor({ env: { PATH: 'bin:.:/usr/bin:/bin', SVC_PAGER: 'mypager 2>/dev/null | cat >/dev/null' }, stdout: screen }, true),
      );
    } finally {
      process.chdir(here);
    }
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
    expect(written).toBe('a\nb\nc\nd\n'.repeat(2));
  });
});
