// tier: unit
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addFlags, flagTable, type FlagsOf } from '../../src/cli/flags';

const TABLE = flagTable({
  expectedEpoch: { flags: '--expected-epoch <epoch>', description: 'an epoch' },
  tag: { flags: '--tag <t...>' },
  label: { flags: '-l, --label <kv>', repeat: true },
  wait: { flags: '--wait' },
  cache: { flags: '--no-cache' },
  mode: { flags: '--mode <m>', choices: ['a', 'b'], default: 'a' },
});

const parse = (argv: string[]) => {
  const cmd = addFlags(new Command('x').exitOverride().configureOutput({ writeErr: () => undefined }), TABLE);
  cmd.parse(argv, { from: 'user' });
  return cmd.opts() as FlagsOf<typeof TABLE>;
};

describe("a flag table: the one declaration of a verb's flags", () => {
  it('makes the options commander parses, each value filed under its key', () => {
    expect(parse(['--expected-epoch', '4', '--tag', 'a', 'b', '-l', 'x=1', '--label', 'y=2', '--wait', '--no-cache'])).toEqual({
      expectedEpoch: '4',
      tag: ['a', 'b'],
      label: ['x=1', 'y=2'],
      wait: true,
      cache: false,
      mode: 'a',
    });
    expect(() => parse(['--mode', 'c'])).toThrow(/Allowed choices are a, b/);
  });

  it('types the parse step from the same entries', () => {
    expectTypeOf<FlagsOf<typeof TABLE>['expectedEpoch']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<FlagsOf<typeof TABLE>['tag']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<FlagsOf<typeof TABLE>['label']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<FlagsOf<typeof TABLE>['wait']>().toEqualTypeOf<boolean | undefined>();
  });

  it('refuses an entry whose key is not the name commander files its value under', () => {
    expect(() => addFlags(new Command('x'), { expected: { flags: '--expected-epoch <e>' } })).toThrow(
      'flag table entry "expected" declares --expected-epoch <e>, whose value commander names "expectedEpoch"',
    );
  });

  it('refuses a flag declared twice on one command', () => {
    const cmd = addFlags(new Command('x'), { wait: { flags: '--wait' } });
    expect(() => addFlags(cmd, { wait: { flags: '--wait' } })).toThrow(/conflicting flag '--wait'/);
  });
});
