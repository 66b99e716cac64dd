import type { Obj } from '../api/resources';
import { vaults, type CredentialBody } from '../api/vaults';
import { ExitCodeError } from '../runtime/errors';
import { MASK, type Change } from './diff';
import type { Body } from './types';
import type { Entry, PlanCtx } from './types';
import { idNow, idOrPlaceholder, refKey, resolveRefs } from './refs';
import { readSecret, sourceOf, type ValueFrom } from './secrets';
import type { Doc } from './types';

/**
 * The credentials of a vault, by name within it. Values are write-only: sent when a credential is created and
 * again only with --update-secrets; the plan names where a value comes from, never the value. Credentials the
 * file does not list are left alone.
 */
export async function planCredentials(pc: PlanCtx, d: Doc, live: Obj | undefined, entry: Entry): Promise<void> {
  const resolved = resolveRefs(d, idOrPlaceholder(pc));
  const wanted = (resolved.credentials ?? []) as Body[];
  const held = new Map<string, Obj>();
  if (live) for await (const c of vaults.credentials.list(pc.c, live.id!, {}, { all: true, pageSize: 1000 })) held.set(String(c.name), c);
  for (const [i, want] of wanted.entries()) {
    const where = `${d.where}: credentials[${i}]`;
    const from = want.value_from as ValueFrom | undefined;
    // Read now, before any write, and only when it will be sent.
    const secret = async (send: boolean) =>
      send && from && pc.o.readSecrets ? readSecret(from, where, { env: pc.o.env, dir: d.dir, signal: pc.o.signal }) : undefined;
    const source = from ? `value from ${sourceOf(from)}, write-only` : 'no value';
    const have = held.get(want.name);
    const egress = want.egress_environment_id as string | undefined;
    if (!have) {
      const value = await secret(true);
      const change: Change = {
        op: 'add',
        path: `credentials.${want.name}`,
        new: { type: want.type, ...(from ? { value: MASK } : {}), ...(egress ? { egress_environment_id: egress } : {}) },
      };
      entry.diff.push(change);
      entry.notes.push(`credential ${want.name}: ${source}, sent on create`);
      entry.steps.push({
        label: `+ credential ${want.name} of Vault ${d.name}`,
        run: async () => {
          const body: CredentialBody = { name: want.name, type: want.type, ...(value !== undefined ? { value } : {}) };
          const egressNow = resolveRefs(d, idNow(pc)).credentials[i].egress_environment_id;
          if (egressNow !== undefined) {
            body.egress_environment_id = egressNow;
            // The plan showed a stand-in when the environment is created by this apply.
            change.new = { ...(change.new as Body), egress_environment_id: egressNow };
          }
          await vaults.credentials.create(pc.c, pc.ids.get(refKey(d))!, body, pc.key());
        },
      });
      continue;
    }
    if (have.type !== want.type) {
      throw new ExitCodeError(
        7,
        `${where}: credential "${want.name}" of vault ${live!.id} is ${String(have.type)}, the file says ${want.type}; a credential's type cannot change: rename it`,
      );
    }
    const patch: CredentialBody = {};
    if (egress !== undefined && egress !== (have.egress_environment_id ?? undefined)) {
      patch.egress_environment_id = egress;
      entry.diff.push({ op: 'change', path: `credentials.${want.name}.egress_environment_id`, old: have.egress_environment_id, new: egress });
    }
    const value = await secret(Boolean(pc.o.updateSecrets));
    if (from && pc.o.updateSecrets) {
      patch.value = value;
      entry.diff.push({ op: 'change', path: `credentials.${want.name}.value`, old: MASK, new: MASK });
      entry.notes.push(`credential ${want.name}: ${source}, sent again: --update-secrets`);
    } else if (from) {
      entry.uncompared = true;
      entry.notes.push(`credential ${want.name}: ${source}, not compared; sent again only with --update-secrets`);
    }
    if (Object.keys(patch).length === 0) continue;
    entry.steps.push({
      label: `~ credential ${want.name} of Vault ${d.name}`,
      run: async () => void (await vaults.credentials.update(pc.c, live!.id!, have.id!, patch)),
    });
  }
  if (entry.action === 'unchanged' && entry.steps.length) entry.action = 'updated';
}
