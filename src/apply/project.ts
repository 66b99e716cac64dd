import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import { ExitCodeError } from '../runtime/errors';
import { isObject } from '../wire/is-object';
import { KIND_SPECS, type Kind } from './kinds/index';

/**
 * The metadata key that marks what one configuration set owns; its value is the set's name.
 * Assumption: metadata keys are free-form strings (docs/service.md: `metadata` is a string→string map).
 */
export const SET_LABEL = 'svc-apply-set';

export const setOf = (o: Obj): string | undefined =>
  isObject(o.metadata) && typeof o.metadata[SET_LABEL] === 'string' ? (o.metadata[SET_LABEL] as string) : undefined;

/** The project's active resources, listed once per kind and only when a document needs that kind. */
export class LiveState {
  private readonly lists = new Map<Kind, Promise<Obj[]>>();
  constructor(readonly c: ApiClient) {}

  items(kind: Kind): Promise<Obj[]> {
    let list = this.lists.get(kind);
    if (!list) {
      list = (async () => {
        const out: Obj[] = [];
        for await (const item of KIND_SPECS[kind].api.list(this.c, {}, { all: true, pageSize: 1000 })) if (!item.archived_at) out.push(item);
        return out;
      })();
      this.lists.set(kind, list);
    }
    return list;
  }

  async named(kind: Kind, name: string): Promise<Obj[]> {
    return (await this.items(kind)).filter((o) => o.name === name);
  }

  /**
   * The resource a document stands for. Without a set (the per-group `apply FILE`), the one active resource
   * of that name. With a set, the one labelled with it; a resource of that name the set does not own is a
   * conflict, never adopted.
   */
  async find(kind: Kind, name: string, set: string | undefined, where: string): Promise<Obj | undefined> {
    const spec = KIND_SPECS[kind];
    const same = await this.named(kind, name);
    const ours = set === undefined ? same : same.filter((o) => setOf(o) === set);
    if (ours.length > 1) {
      throw new ExitCodeError(7, `${ours.length} ${spec.group} are named "${name}" (${ours.map((f) => f.id).join(', ')}): apply needs a unique name`);
    }
    if (ours.length === 1) return ours[0];
    const other = same[0];
    if (set !== undefined && other) {
      const owner = setOf(other);
      throw new ExitCodeError(
        7,
        `${where}: ${kind} "${name}" clashes with ${spec.noun} ${other.id} "${name}", which ${owner ? `set "${owner}" owns` : 'carries no set label'}: apply never touches what set "${set}" does not own; rename one of them`,
      );
    }
    return undefined;
  }

  /** What a reference by name means outside the files: the one active resource of that name, whoever owns it. */
  async referenced(kind: Kind, name: string): Promise<Obj | undefined> {
    const same = await this.named(kind, name);
    if (same.length > 1)
      throw new ExitCodeError(
        7,
        `${same.length} ${KIND_SPECS[kind].group} are named "${name}" (${same.map((f) => f.id).join(', ')}): a reference by name needs a unique name`,
      );
    return same[0];
  }
}
