/**
 * The generic verbs in one import, for the command groups that use several: each verb lives in its own file
 * (list, get, create, update, delete, archive) with its typed options, parse step and run function.
 */
export { addArchive, parseArchive, runArchive, type ArchiveVerbOptions } from './archive';
export { addBodyFlags, bodyFrom, parseBody, readVerbBody, type BodyFlag, type BodyInput, type BodyVerb } from './body';
export { addCreate, parseCreate, runCreate, type CreateVerbOptions } from './create';
export { addDelete, parseDelete, runDelete, type DeleteVerbOptions } from './delete';
export { done } from './write-result';
export { addGet, parseGet, runGet, type GetVerbOptions } from './get';
export { idempotencyFlags, idempotencyKey, unknownOutcome } from './idempotency';
export {
  addChildList,
  addList,
  LIST_FLAGS,
  filterQuery,
  listOptions,
  mapAsync,
  parseChildList,
  parseList,
  printList,
  runChildList,
  runList,
  sortedBy,
  TIME_FILTERS,
  type ChildListOptions,
  type ListFilter,
  type ListPage,
  type ListVerbOptions,
} from './list';
export { article, pickSource, resourceSpec, type ResourceSpec } from './spec';
export { addUpdate, parseUpdate, runUpdate, type UpdateVerbOptions } from './update';
