import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPid } from './pid-file';

describe('what every test process is set up with', () => {
  it('a pid file is read only once its whole line is there: no file, the empty file `>` makes, or a part line is no pid', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'svc-pid-')), 'pid');
    expect(readPid(f)).toBeUndefined();
    writeFileSync(f, '');
    expect(readPid(f)).toBeUndefined();
    writeFileSync(f, '123');
    expect(readPid(f)).toBeUndefined();
    writeFileSync(f, '0\n');
    expect(readPid(f)).toBeUndefined();
    writeFileSync(f, '12345\n');
    expect(readPid(f)).toBe(12345);
  });

  it('process.kill refuses 0, -1, 1 and a misread pid in every test process, and still signals one process', () => {
    for (const pid of [0, -0, 1, -1, Number(''), Number('x'), 1.5]) expect(() => process.kill(pid, 0)).toThrow(/kill-guard/);
    expect(process.kill(process.pid, 0)).toBe(true);
  });

  it('its TMPDIR is the run’s own folder (sticky, open to all like /tmp), so the run’s temporary folders go with it', () => {
    expect(process.env.TMPDIR).toBe(tmpdir());
    expect(tmpdir()).toMatch(/\/svc-tests-[^/]+$/);
    expect(statSync(tmpdir()).mode & 0o7777).toBe(0o1777);
  });
});
