import type { ApiClient } from '../api/client';
import { pruneOrder } from '../api/manifest';
import type { Obj } from '../api/resources';
import { UsageError } from '../runtime/errors';
import { isObject } from '../wire/is-object';
import { maskWriteOnly, plan as diffPlan, type Change } from './diff';
import { KIND_SPECS } from './kinds/index';
import type { Body, Entry, PlanCtx, PlanOptions } from './types';
import { LiveState, setOf, SET_LABEL } from './project';
import { dependencyOrder, idNow, idOrPlaceholder, refKey, refsOf, resolveRefs, type NamedRef } from './refs';
import { McpHeaders, serverIn } from './headers';
import { planSkill } from './skill-plan';
import type { Doc } from './types';
import { planCredentials } from './credentials';

/**
 * The plan: every document in dependency order (creates, updates, unchanged), then with --prune the archives.
 * Sends reads only. References to a name neither in the files nor in the project are usage errors here.
 */
export async function makePlan(c: ApiClient, docs: Doc[], o: PlanOptions): Promise<Entry[]> {
  const ordered = dependencyOrder(docs);
  let keyUsed = false;
  const pc: PlanCtx = {
    c,
    live: new LiveState(c),
    ids: new Map(),
    o,
    key: () => {
      if (o.idempotencyKey && !keyUsed) {
        keyUsed = true;
        return o.idempotencyKey;
      }
      return globalThis.crypto.randomUUID();
    },
  };
  const inFiles = new Set(docs.map((d) => refKey(d)));
  for (const d of ordered) {
    for (const r of refsOf(d)) {
      if (inFiles.has(refKey(r)) || pc.ids.has(refKey(r))) continue;
      const found = await pc.live.referenced(r.kind, r.name);
      if (!found) throw new UsageError(`${d.where}: ${d.kind} "${d.name}" names ${r.kind} "${r.name}", which is neither in the files nor in the project`);
      pc.ids.set(refKey(r), found.id!);
    }
  }
  const entries: Entry[] = [];
  for (const d of ordered) entries.push(await planDoc(pc, d));
  if (o.prune && o.set !== undefined) entries.push(...(await planPrune(pc, o.set, inFiles)));
  return entries;
}

/** The body the service should hold: references resolved, apply-only members dropped, the set's label added. */
export function desired(pc: PlanCtx, d: Doc, live: Obj | undefined, idOf: (r: NamedRef) => string): Body {
  const spec = KIND_SPECS[d.kind];
  const resolved = resolveRefs(d, idOf);
  const body: Body = {};
  for (const [k, v] of Object.entries(resolved)) if (!spec.applyFields?.includes(k)) body[k] = v;
  if (pc.o.set !== undefined) {
    const base = isObject(d.body.metadata) ? d.body.metadata : isObject(live?.metadata) ? live.metadata : {};
    body.metadata = { ...base, [SET_LABEL]: pc.o.set };
  }
  return body;
}

/** A create's difference: every member added, write-only values masked. */
const added = (body: Body, writeOnly: string[]): Change[] => {
  const shown = maskWriteOnly(body, writeOnly);
  return Object.keys(body).map((k) => ({ op: 'add', path: k, new: shown[k] }));
};

async function planDoc(pc: PlanCtx, d: Doc): Promise<Entry> {
  const spec = KIND_SPECS[d.kind];
  const live = await pc.live.find(d.kind, d.name, pc.o.set, d.where);
  if (live) pc.ids.set(refKey(d), live.id!);
  const entry: Entry = { kind: d.kind, name: d.name, action: 'unchanged', id: live?.id ?? null, diff: [], notes: [], steps: [], uncompared: false };
  if (d.kind === 'Skill') return planSkill(pc, d, live, entry);
  const writeOnly = spec.writeOnly ?? [];
  const want = desired(pc, d, live, idOrPlaceholder(pc));
  const headers = d.kind === 'Agent' ? new McpHeaders(d, { env: pc.o.env, signal: pc.o.signal }) : undefined;
  // Secrets are read now, before any write, and only those a write will send.
  const prepare = async (send: Parameters<McpHeaders['prepare']>[0]) => void (pc.o.readSecrets && (await headers?.prepare(send)));
  if (!live) {
    for (const r of spec.required ?? []) if (want[r] === undefined) throw new UsageError(`${d.where}: ${spec.noun} ${r} is required to create "${d.name}"`);
    entry.action = 'created';
    entry.diff = added(want, writeOnly);
    await prepare(() => true);
    entry.steps.push({
      label: `+ ${d.kind} ${d.name}`,
      run: async () => {
        const body = desired(pc, d, undefined, idNow(pc));
        // The plan showed stand-ins for IDs this apply creates; what is printed afterwards has the real ones.
        entry.diff = added(body, writeOnly);
        const created = await spec.api.create(pc.c, headers ? headers.withValues(body) : body, pc.key());
        entry.id = created.id ?? null;
        pc.ids.set(refKey(d), created.id!);
      },
    });
  } else {
    const { diff, patch } = diffPlan(want, live, writeOnly);
    entry.diff = diff;
    // Refuses here, before any write, what the service is certain to refuse (a reuse_session trigger).
    if (diff.length) spec.patches?.(live, patch);
    if (headers?.present) {
      entry.uncompared = !pc.o.updateSecrets;
      entry.notes.push(
        pc.o.updateSecrets
          ? 'mcp_servers headers (write-only) are sent again: --update-secrets'
          : 'mcp_servers headers are write-only: not compared, sent again only with --update-secrets',
      );
    }
    const resend = Boolean(headers?.present && pc.o.updateSecrets);
    if (diff.length || resend) {
      entry.action = 'updated';
      if (patch.mcp_servers || resend) await prepare((s) => resend || !serverIn(live, s));
      entry.steps.push({
        label: `~ ${d.kind} ${d.name}`,
        run: async () => {
          const now = desired(pc, d, live, idNow(pc));
          const { patch, diff } = diffPlan(now, live, writeOnly);
          entry.diff = diff;
          if (resend) patch.mcp_servers = now.mcp_servers;
          const withSecrets = headers ? headers.withValues(patch) : patch;
          // docs/service.md Agents: the version read for the plan, so a change made since is refused (409), never overwritten.
          const sent = d.kind === 'Agent' && typeof live.version === 'number' ? { ...withSecrets, version: live.version } : withSecrets;
          for (const b of spec.patches ? spec.patches(live, sent) : [sent]) await spec.api.update(pc.c, live.id!, b);
        },
      });
    }
  }
  if (d.kind === 'Vault') await planCredentials(pc, d, live, entry);
  return entry;
}

/** With --prune: each active resource labelled with the set whose kind and name no document holds, archived. */
async function planPrune(pc: PlanCtx, set: string, inFiles: Set<string>): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const kind of pruneOrder()) {
    for (const o of await pc.live.items(kind)) {
      if (setOf(o) !== set || inFiles.has(refKey({ kind, name: String(o.name) }))) continue;
      const entry: Entry = { kind, name: String(o.name), action: 'archived', id: o.id!, diff: [], notes: [], steps: [], uncompared: false };
      entry.steps.push({ label: `- ${kind} ${entry.name}`, run: async () => void (await KIND_SPECS[kind].api.archive(pc.c, o.id!)) });
      out.push(entry);
    }
  }
  return out;
}
