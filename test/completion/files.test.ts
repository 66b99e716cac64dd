import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCRIPT_FILES, SHELLS } from '../../src/completion/scripts';
import { svc } from '../helpers/cli';

describe('svc completion', () => {
  for (const shell of SHELLS) {
    it(`completions/${SCRIPT_FILES[shell]} is what \`svc completion ${shell}\` prints now (else: npm run generate)`, async () => {
      const r = await svc(['completion', shell]);
      expect(r.code).toBe(0);
      expect(readFileSync(new URL(`../../completions/${SCRIPT_FILES[shell]}`, import.meta.url), 'utf8')).toBe(r.stdout);
    });
  }

  it('the scripts offer the --status values: a session verb the states, threads archive the thread statuses', async () => {
    const r = await svc(['completion', 'bash']);
    expect(r.stdout).toContain("'E|sessions list|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;");
    expect(r.stdout).toContain("'E|sessions archive|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;");
    expect(r.stdout).toContain("'E|top|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;");
    expect(r.stdout).toContain("'E|threads archive|--status') REPLY='idle running rescheduling terminated cancelled interrupted' ;;");
  });

  it('an unknown shell is a usage error', async () => {
    const r = await svc(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('the __complete callback is hidden from help', async () => {
    const r = await svc(['--help']);
    expect(r.stdout).toContain('completion');
    expect(r.stdout).not.toContain('__complete');
  });
});
