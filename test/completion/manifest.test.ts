import { describe, expect, it } from 'vitest';
import { KINDED, RESOURCE_LIST } from '../../src/api/manifest';
import { KIND_NAMES, KINDS } from '../../src/apply/names';
import { KIND_SPECS } from '../../src/apply/kinds/index';
import { GROUPS } from '../../src/cli/groups';
import { listingFor, SOURCES } from '../../src/completion/resources';

/** Adding a resource is one manifest entry plus its own files: whatever reads the manifest must have its part. */
describe('the resource manifest, read by everyone', () => {
  for (const r of RESOURCE_LIST) {
    it(`${r.group}: completion lists its IDs from the manifest's path`, () => {
      expect(SOURCES[r.group]?.path).toBe(r.path);
      expect(listingFor(r.group, 'id', {}, 10)).toMatchObject({ path: r.path, query: { page_size: 10 } });
      // An argument named by the resource's noun (`<agent_id>`, `<memory_store_id>`) completes the same list.
      expect(listingFor('sessions', `${r.noun.replace(/ /g, '_')}_id`, {}, 10)?.path).toBe(r.path);
    });

    it(`${r.group}: the command registry has its group`, () => {
      expect(GROUPS.find((g) => g.name === r.group)?.description).toBe(r.description);
    });
  }

  for (const r of KINDED) {
    it(`${r.kind}: apply knows the kind, with the manifest's API entry, noun and group`, () => {
      expect(KINDS).toContain(r.kind);
      expect(KIND_NAMES[r.kind]).toEqual({ kind: r.kind, noun: r.noun, group: r.group });
      const spec = KIND_SPECS[r.kind];
      expect(spec).toMatchObject({ kind: r.kind, noun: r.noun, group: r.group });
      expect(spec.api.entry).toBe(r);
    });
  }

  it('apply holds no kind the manifest does not', () => {
    expect(Object.keys(KIND_SPECS).sort()).toEqual(KINDED.map((r) => r.kind).sort());
  });
});
