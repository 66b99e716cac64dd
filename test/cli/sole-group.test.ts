// The root tree of a command line that runs a group holds that group's place alone (cli/program.ts soleGroup): the
// places of the other groups cost start-up. Every line that may show or search the whole tree still gets all of it.
import { describe, expect, it } from 'vitest';
import { makeKit } from '../../src/cli/action';
import { isCommand } from '../../src/cli/groups';
import { buildProgram, loadAllGroups, loadGroup, soleGroup, targetGroup } from '../../src/cli/program';
import type { Io } from '../../src/runtime/io';
import { svc } from '../helpers/cli';

const io = { stdin: undefined as never, stdinIsTTY: false, stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd() } as Io;
const kit = makeKit(io, () => undefined, { build: buildProgram, load: loadGroup, loadAll: loadAllGroups, target: targetGroup, isCommand });
const groupsOf = (argv: string[]) => buildProgram(io, kit, soleGroup(argv)).commands.map((c) => c.name());

describe('the tree a command line gets', () => {
  it('a group run (after global options too) gets its own place and version only', () => {
    expect(groupsOf(['agents', 'get', 'agent_1'])).toEqual(['agents', 'version']);
    expect(groupsOf(['--profile', 'ci', '-o', 'json', 'sessions', 'list'])).toEqual(['sessions', 'version']);
  });

  it('no group, help, version or a word that is no command gets every group', () => {
    const all = groupsOf([]);
    expect(all.length).toBeGreaterThan(20);
    for (const argv of [['--help'], ['help', 'agents'], ['version'], ['agnts', 'list'], ['my-alias']]) expect(groupsOf(argv), argv.join(' ')).toEqual(all);
  });

  it('an unknown word still gets the nearest command as a suggestion, an unknown verb the nearest verb', async () => {
    expect(await svc(['agnts', 'list'])).toMatchObject({ code: 2, stderr: "error: unknown command 'agnts'\n(Did you mean agents?)\n" });
    expect(await svc(['agents', 'lst'])).toMatchObject({ code: 2, stderr: "error: unknown command 'lst'\n(Did you mean list?)\n" });
  });
});
