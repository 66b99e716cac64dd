import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../src/cli/groups';
import { svc } from '../helpers/cli';

/** The verbs listed under "Commands:" in a help text (commander's own `help` left out). */
function verbs(help: string): string[] {
  const section = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((l) => /^ {2}(\S+)/.exec(l)?.[1])
    .filter((v): v is string => v !== undefined && v !== 'help');
}

describe('help examples', () => {
  for (const g of GROUPS.filter((x) => !x.hidden)) {
    it(`svc ${g.name} --help shows at least one example per verb`, async () => {
      const r = await svc([g.name, '--help']);
      expect(r.code).toBe(0);
      const examples = r.stdout.split('\n').filter((l) => l.startsWith('  $ '));
      expect(examples.length).toBeGreaterThan(0);
      for (const v of verbs(r.stdout)) {
        const used = new RegExp(`(^|[\\s($])svc ${g.name} ${v}($|[\\s)])`);
        expect(
          examples.some((l) => used.test(l)),
          `an example of svc ${g.name} ${v}`,
        ).toBe(true);
      }
    });
  }
});
