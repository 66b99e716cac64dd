import type { ApiClient } from '../api/client';
import type { Crud, Obj } from '../api/resources';
import type { Change, WriteOnly } from './diff';
import type { Kind } from './names';
import type { LiveState } from './project';

/** A document's body, or a request body built from it. */
export type Body = Record<string, any>;

/** One configuration document: its kind and name, the rest of its body, and where it came from. */
export interface Doc {
  kind: Kind;
  name: string;
  /** The document without `kind` (`name` kept). */
  body: Body;
  /** `dir/file.yaml document 2 (line 7)`: what error lines name. */
  where: string;
  /** The folder of its file: relative paths in the document (`path`, `value_from.file`) start here. */
  dir: string;
}

export type Action = 'created' | 'updated' | 'unchanged' | 'archived';

/** One write of the plan; `label` names it in the applied / not applied summary. */
export interface Step {
  label: string;
  run: () => Promise<void>;
}

/** One line of the plan: a document (or, with --prune, a resource the files no longer hold) and its writes. */
export interface Entry {
  kind: Kind;
  name: string;
  action: Action;
  id: string | null;
  diff: Change[];
  /** What the plan says besides the diff: secrets not compared, a skill's package. Never a secret's value. */
  notes: string[];
  steps: Step[];
  /** Write-only members were in the document and could not be compared. */
  uncompared: boolean;
}

export interface PlanOptions {
  /** The set whose label apply writes and whose resources alone it touches; none for the per-group verbs. */
  set?: string;
  prune?: boolean;
  updateSecrets?: boolean;
  /** Read `value_from` secrets now (a write will follow); a dry run and `diff` never read them. */
  readSecrets?: boolean;
  /** The Idempotency-Key of the one create of a per-group `apply FILE --idempotency-key K`. */
  idempotencyKey?: string;
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C: a `value_from` file that waits (a FIFO) stops waiting. */
  signal?: AbortSignal;
}

/** What a step needs to send: the client, the IDs known so far (live, then created), the options. */
export interface PlanCtx {
  c: ApiClient;
  live: LiveState;
  ids: Map<string, string>;
  o: PlanOptions;
  /** A fresh Idempotency-Key per create intent, kept across that create's retries (never derived from names). */
  key: () => string;
}

/**
 * A reference by name: at each object matched by `at` (`''` the document itself, `skills.*` each element),
 * member `from` names a resource of `kind`; apply replaces it with `to`, that resource's ID, plus `defaults`.
 */
export interface RefSpec {
  at: string;
  from: string;
  to: string;
  kind: Kind;
  defaults?: Body;
}

export interface KindSpec {
  kind: Kind;
  noun: string;
  group: string;
  api: Crud;
  /** Members the create and update endpoints take (docs/service.md). */
  fields: readonly string[];
  /** Members only apply reads: references by name, the credentials of a vault, the folder of a skill. */
  applyFields?: readonly string[];
  /** Members the service manages besides `id` and the timestamps: dropped, so `get -o yaml` output applies. */
  readOnly?: readonly string[];
  /** Members a create needs (after references are resolved). */
  required?: readonly string[];
  /** Members the service never returns: compared never, printed masked. */
  writeOnly?: WriteOnly;
  refs?: RefSpec[];
  /** Client-side checks of a document (enums, reference rules), before any request. */
  check?: (body: Body) => void;
  /** The PATCH bodies of one update, in order (a trigger switches session_mode first). */
  patches?: (live: Obj, patch: Body) => Body[];
}
