import type { Command } from 'commander';
import type { GenericVerb, ResourceEntry } from '../../api/manifest';
import { crud } from '../../api/resources';
import { age } from '../../output/age';
import type { Column } from '../../output/table';
import type { GroupBuilder, Kit } from '../action';
import { addArchive } from './archive';
import type { BodyFlag } from './body';
import { addCreate } from './create';
import { addDelete } from './delete';
import { addSelectableList } from './selector-list';
import { addGet } from './get';
import { addList } from './list';
import { resourceSpec, type ResourceSpec } from './spec';
import { addUpdate } from './update';

/** The table of a resource with no command folder: its ID, its name where it has one, its age. */
export function plainColumns(r: ResourceEntry): Column[] {
  return [
    { header: 'ID', get: (o) => o.id },
    ...(r.named ? [{ header: 'NAME', get: (o: Record<string, unknown>) => o.name }] : []),
    { header: 'CREATED', get: (o) => age(o.created_at) },
  ];
}

type AddVerb = (group: Command, kit: Kit, spec: ResourceSpec, flags: BodyFlag[]) => void;

const VERBS: Record<GenericVerb, AddVerb> = {
  list: (group, kit, spec) =>
    void (spec.api.entry.selectors
      ? addSelectableList(group, kit, spec, { examples: [`svc ${spec.group} list`, `svc ${spec.group} list -l 'team=infra' --older-than 30d`] })
      : addList(group, kit, spec)),
  get: (group, kit, spec) => void addGet(group, kit, spec),
  create: (group, kit, spec, flags) => void addCreate(group, kit, spec, { flags }),
  update: (group, kit, spec, flags) => void addUpdate(group, kit, spec, { flags }),
  delete: (group, kit, spec) => void addDelete(group, kit, spec),
  archive: (group, kit, spec) => void addArchive(group, kit, spec),
};

/** The group of a resource that needs no verb beyond the generic ones: all of it from its manifest row. */
export function plainGroup(r: ResourceEntry): GroupBuilder {
  const spec = resourceSpec(crud(r), plainColumns(r));
  const flags: BodyFlag[] = r.named ? [{ flags: '--name <name>', description: `${r.noun} name`, field: 'name' }] : [];
  return (group, kit) => {
    for (const verb of r.verbs) VERBS[verb](group, kit, spec, flags);
  };
}
