import { UsageError } from '../runtime/errors';
import { isObject } from '../wire/is-object';
import { KIND_SPECS, type Kind } from './kinds/index';
import type { Body } from './types';
import type { Doc, PlanCtx } from './types';

/** The objects of `body` that `at` matches: `''` the body, `skills.*` each element of `skills`. */
function holders(body: Body, at: string): Body[] {
  if (at === '') return [body];
  let level: unknown[] = [body];
  for (const part of at.split('.')) {
    level = level.flatMap((v) => (part === '*' ? (Array.isArray(v) ? v : []) : isObject(v) ? [v[part]] : []));
  }
  return level.filter(isObject) as Body[];
}

export interface NamedRef {
  kind: Kind;
  name: string;
}

/** The resources a document names, by kind and name. */
export function refsOf(doc: Doc): NamedRef[] {
  const out: NamedRef[] = [];
  for (const r of KIND_SPECS[doc.kind].refs ?? []) {
    for (const h of holders(doc.body, r.at)) {
      if (h[r.from] === undefined) continue;
      if (typeof h[r.from] !== 'string')
        throw new UsageError(`${doc.where}: ${r.from} must be the name of ${r.kind === 'Agent' || r.kind === 'Environment' ? 'an' : 'a'} ${r.kind}`);
      if (h[r.to] !== undefined) throw new UsageError(`${doc.where}: give ${r.from} (a name) or ${r.to}, not both`);
      out.push({ kind: r.kind, name: h[r.from] });
    }
  }
  return out;
}

/** A copy of the body with every reference by name replaced by the ID `idOf` gives. */
export function resolveRefs(doc: Doc, idOf: (ref: NamedRef) => string): Body {
  const body = structuredClone(doc.body);
  for (const r of KIND_SPECS[doc.kind].refs ?? []) {
    for (const h of holders(body, r.at)) {
      if (h[r.from] === undefined) continue;
      const id = idOf({ kind: r.kind, name: h[r.from] });
      delete h[r.from];
      h[r.to] = id;
      for (const [k, v] of Object.entries(r.defaults ?? {})) h[k] ??= v;
    }
  }
  return body;
}

export const refKey = (r: NamedRef): string => `${r.kind}\0${r.name}`;

/**
 * The documents in dependency order: what a document names in the files comes before it; otherwise the
 * files' order. A cycle is a usage error naming it.
 */
export function dependencyOrder(docs: Doc[]): Doc[] {
  const byKey = new Map(docs.map((d) => [refKey(d), d]));
  const out: Doc[] = [];
  const state = new Map<Doc, 'visiting' | 'done'>();
  const visit = (d: Doc, path: Doc[]) => {
    if (state.get(d) === 'done') return;
    if (state.get(d) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(d)), d].map((x) => `${x.kind} "${x.name}"`).join(' → ');
      throw new UsageError(`${d.where}: reference cycle: ${cycle}`);
    }
    state.set(d, 'visiting');
    for (const r of refsOf(d)) {
      const dep = byKey.get(refKey(r));
      if (dep) visit(dep, [...path, d]);
    }
    state.set(d, 'done');
    out.push(d);
  };
  for (const d of docs) visit(d, []);
  return out;
}

/** An ID known now, or a stand-in for one this apply creates first (shown in the plan, replaced when sent). */
export const idOrPlaceholder = (pc: Pick<PlanCtx, 'ids'>) => (r: NamedRef) => pc.ids.get(refKey(r)) ?? `<new ${r.kind} ${r.name}>`;
export const idNow = (pc: Pick<PlanCtx, 'ids'>) => (r: NamedRef) => pc.ids.get(refKey(r))!;
