import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { KINDED, pruneOrder, RESOURCE_LIST, type ResourceEntry } from '../../src/api/manifest';
import { KIND_SPECS } from '../../src/apply/kinds/index';
import type { GroupBuilder, Kit, Tree } from '../../src/cli/action';
import { groupsOf, GROUPS } from '../../src/cli/groups';
import { buildProgram } from '../../src/cli/program';
import { plainGroup } from '../../src/cli/verbs/plain-group';
import { completionTable, listingFor, namedParents } from '../../src/completion/resources';
import { notFoundHint } from '../../src/output/error-hints';
import type { Io } from '../../src/runtime/io';

/** A resource no real command knows: only its manifest row. */
const GADGETS: ResourceEntry = {
  group: 'gadgets',
  noun: 'gadget',
  path: '/v1/gadgets',
  kind: 'Gadget',
  prune: 0,
  named: true,
  metadata: true,
  description: 'Manage gadgets',
  verbs: ['list', 'get', 'create', 'update', 'delete', 'archive'],
  selectors: true,
  filters: [
    { flags: '--shiny', description: 'only shiny gadgets', query: 'shiny' },
    { flags: '--colour <colour>', description: 'only gadgets of this colour', query: 'colour' },
  ],
  timeFilters: true,
  argNames: ['gizmo'],
  versions: true,
};
const ROWS: readonly ResourceEntry[] = [...RESOURCE_LIST, GADGETS];
const KINDED_ROWS = ROWS.filter((r) => r.kind !== undefined);

/** A kit whose verbs run only the parse step, handing its typed options to `seen`. */
function parsingKit(seen: (o: unknown) => void): Kit {
  return {
    io: {} as Io,
    tree: {} as Tree,
    verb:
      (parse) =>
      async (...a: unknown[]) => {
        const cmd = a[a.length - 1] as Command;
        const args = a.slice(0, -2).flatMap((x) => (Array.isArray(x) ? x : x === undefined ? [] : [x])) as string[];
        seen(parse(args, cmd.opts()));
      },
  };
}

/** The group `build` makes under a fresh program, and a way to run one command line's parse step. */
function groupOf(name: string, build: GroupBuilder) {
  let parsed: unknown;
  const program = new Command('svc').exitOverride();
  const group = program.command(name).exitOverride();
  build(
    group,
    parsingKit((o) => (parsed = o)),
  );
  for (const c of group.commands) c.exitOverride();
  return {
    group,
    verbs: group.commands.map((c) => c.name()),
    options: (verb: string) => group.commands.find((c) => c.name() === verb)?.options.map((o) => o.long) ?? [],
    parse: async (...argv: string[]) => {
      await program.parseAsync([name, ...argv], { from: 'user' });
      return parsed as Record<string, unknown>;
    },
  };
}

describe('a resource added to a copy of the manifest is seen everywhere that reads it', () => {
  it('the group registry and svc --help list its group with its description (among the resources); apply names its kind', async () => {
    const groups = groupsOf(ROWS, KINDED_ROWS);
    const g = groups.find((x) => x.name === 'gadgets');
    expect(g?.description).toBe('Manage gadgets');
    expect(groups.find((x) => x.name === 'apply')?.description).toMatch(/, gadgets\)$/);
    // The table keeps the groups by name: the new one among them.
    const names = groups.filter((x) => !x.hidden).map((x) => x.name);
    expect(names).toEqual([...names].sort());
    // `svc --help` made from that table lists it, with its description, among the resources.
    const help = buildProgram(
      { env: {} } as Io,
      parsingKit(() => {}),
      undefined,
      groups,
    ).helpInformation();
    const resources = help.slice(help.indexOf('\nResources:\n'), help.indexOf('\n\n', help.indexOf('\nResources:\n') + 1));
    expect(resources).toMatch(/^ {2}gadgets +Manage gadgets$/m);
    expect(
      buildProgram(
        { env: {} } as Io,
        parsingKit(() => {}),
      ).helpInformation(),
    ).not.toMatch(/gadgets/);
    // No command folder: loading the group builds the generic verbs of its row.
    const built = groupOf('gadgets', (await g!.load()).default);
    expect(built.verbs).toEqual(['list', 'get', 'create', 'update', 'delete', 'archive']);
  });

  it('its list takes the row filters (a flag without a value sends true), the time filters and the selectors', async () => {
    const built = groupOf('gadgets', plainGroup(GADGETS));
    expect(built.options('list')).toEqual(expect.arrayContaining(['--shiny', '--colour', '--created-after', '--selector', '--older-than', '--watch']));
    const o = await built.parse('list', '--shiny', '--colour', 'red', '--created-after', '2026-01-01T00:00:00Z', '-l', 'team=a');
    expect(o.query).toEqual({ shiny: true, colour: 'red', created_at_gt: '2026-01-01T00:00:00Z' });
    expect(o.selectors).toMatchObject({ labels: expect.anything() });
  });

  it('its bulk verbs take selectors because its row says so, and create/update a name and metadata', async () => {
    const built = groupOf('gadgets', plainGroup(GADGETS));
    for (const verb of ['archive', 'delete']) expect(built.options(verb)).toEqual(expect.arrayContaining(['--selector', '--older-than', '--yes', '--dry-run']));
    expect(built.options('create')).toEqual(expect.arrayContaining(['--name', '--metadata', '--data']));
    const o = await built.parse('archive', '-l', 'scratch', '--yes');
    expect(o).toMatchObject({ yes: true, selectors: expect.anything() });
    const plain = groupOf('gadgets', plainGroup({ ...GADGETS, selectors: undefined }));
    expect(plain.options('archive')).not.toContain('--selector');
    expect(plain.options('list')).not.toContain('--selector');
  });

  it('apply --prune archives its kind, at its place in the order', () => {
    expect(pruneOrder<string>(ROWS)).toEqual(['Gadget', 'Trigger', 'Agent', 'Vault', 'MemoryStore', 'Environment', 'Skill']);
  });

  it('a 404 in its group names its list, and that a name works', () => {
    expect(notFoundHint('gadgets', ROWS)).toBe("`svc gadgets list` shows each gadget's ID with its name, and a name works in place of an ID");
    expect(notFoundHint('gadgets')).toBeUndefined();
  });

  it('completion lists its IDs, by its group, its noun and its other argument names, and its versions', () => {
    const t = completionTable(ROWS);
    expect(listingFor('gadgets', 'id', {}, 10, t)).toMatchObject({ path: '/v1/gadgets', query: { page_size: 10 } });
    expect(listingFor('sessions', 'gadget_id', {}, 10, t)?.path).toBe('/v1/gadgets');
    expect(listingFor('sessions', 'gizmo', {}, 10, t)?.path).toBe('/v1/gadgets');
    expect(listingFor('gadgets', 'version', { id: 'gdg_1' }, 10, t)?.path).toBe('/v1/gadgets/gdg_1/versions');
    // A named parent is looked up by name: the row's `named` reaches completion too.
    expect(namedParents('gadgets', 'version', { id: 'big-one' }, 10, t, ROWS).map((p) => p.listing.path)).toEqual(['/v1/gadgets']);
    expect(listingFor('gadgets', 'id', {}, 10)).toBeUndefined();
  });
});

describe('every real manifest row has its part where nothing else would notice it missing', () => {
  it('each kind has its own place in the prune order, and a kind that names another is archived before it', () => {
    const order = pruneOrder();
    expect([...order].sort()).toEqual(KINDED.map((r) => r.kind).sort());
    expect(new Set(KINDED.map((r) => r.prune)).size).toBe(KINDED.length);
    for (const r of KINDED)
      for (const ref of KIND_SPECS[r.kind].refs ?? [])
        if (ref.kind !== r.kind) expect(order.indexOf(r.kind), `${r.kind} names ${ref.kind}`).toBeLessThan(order.indexOf(ref.kind));
  });

  for (const r of RESOURCE_LIST)
    it(`${r.group}: a 404 has its hint; its command folder has the row's generic verbs, with selectors where the row says`, async () => {
      expect(notFoundHint(r.group)).toContain(`svc ${r.group} list`);
      const built = groupOf(r.group, (await GROUPS.find((g) => g.name === r.group)!.load()).default);
      expect(built.verbs).toEqual(expect.arrayContaining([...r.verbs]));
      for (const verb of ['list', 'archive', 'delete'].filter((v) => r.verbs.includes(v as never)))
        expect(built.options(verb).includes('--selector'), `${r.group} ${verb} -l`).toBe(Boolean(r.selectors));
      for (const f of r.filters ?? []) expect(built.options('list')).toContain(new Command().createOption(f.flags).long);
    });
});
