import type { Command } from 'commander';
import type { Obj } from '../../api/resources';
import { CREDENTIAL_TYPES, vaults } from '../../api/vaults';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { DATA_FLAGS } from '../../cli/verbs/body';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { addChildList, done, idempotencyKey, mapAsync, parseBody, readVerbBody, type BodyFlag, type BodyInput } from '../../cli/verbs/resource';
import { createInParent, inParent, listInParent } from '../../cli/verbs/parent';
import { CREDENTIAL_COLUMNS } from './columns';
import { checkInlineData, parseValueSource, readValue, VALUE_FLAGS, type ValueSource } from './value';

/** The one-field flags of a credential's body, each sent as its `field`. */
const FIELDS = flagTable({
  name: { flags: '--name <name>', description: 'credential name', field: 'name' },
  egressEnvironment: {
    flags: '--egress-environment <id>',
    description: 'environment whose proxy an mcp_oauth credential uses ("" clears it)',
    field: 'egress_environment_id',
  },
});
const FLAGS: BodyFlag[] = Object.values(FIELDS);

/** `--data`, where inline JSON may not hold the value. */
const DATA = { ...DATA_FLAGS.data, description: 'request body as JSON or YAML from a file or - for stdin (inline JSON may not hold the value)' };

/** Types whose value is needed at creation; an mcp_oauth credential gets its tokens later. */
const NEEDS_VALUE = ['static_bearer', 'environment_variable'];

/** A credential as printed: `value` is write-only and never shown, even if a server sent it back. */
function shown(c: Obj | undefined): Obj | undefined {
  if (!c || typeof c !== 'object') return c;
  const { value: _value, ...rest } = c;
  return rest;
}

/** `svc vaults credentials get|delete VAULT CRED`. */
export interface CredentialRef {
  vault: string;
  id: string;
}

export const parseCredentialRef = ([vault, id]: string[]): CredentialRef => ({ vault, id });

/** `svc vaults credentials create VAULT` and `update VAULT CRED`: the body's flags, the value's source, the key. */
export interface CredentialWrite {
  vault: string;
  id?: string;
  body: BodyInput;
  type?: string;
  value: ValueSource;
  idempotencyKey?: string;
}

/** `svc vaults credentials update`'s flags: --data, the body's and the value's. */
export const CREDENTIAL_UPDATE_FLAGS = flagTable({ data: DATA, ...FIELDS, ...VALUE_FLAGS });
/** `svc vaults credentials create`'s flags: update's, --type and --idempotency-key. */
export const CREDENTIAL_CREATE_FLAGS = flagTable({
  data: DATA,
  name: FIELDS.name,
  type: { flags: '--type <type>', description: 'credential type', choices: CREDENTIAL_TYPES },
  egressEnvironment: FIELDS.egressEnvironment,
  ...idempotencyFlags(),
  ...VALUE_FLAGS,
});

/** Both verbs' parse step: update has no --type or --idempotency-key, so they read as not given. */
export const parseCredentialWrite = ([vault, id]: string[], flags: FlagsOf<typeof CREDENTIAL_CREATE_FLAGS>): CredentialWrite => ({
  vault,
  id,
  body: parseBody(flags, FLAGS),
  type: flags.type,
  value: parseValueSource(flags),
  idempotencyKey: flags.idempotencyKey,
});

/** The body from --data and the flags, plus the value; `ask` says whether a missing value is prompted for. */
async function credentialBody(ctx: Ctx, o: CredentialWrite, ask: (body: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const body = await readVerbBody(ctx, o.body);
  if (o.type !== undefined) body.type = o.type;
  checkInlineData(o.body.data, body);
  const value = await readValue(ctx, o.value, ask(body));
  if (value !== undefined) body.value = value;
  return body;
}

export async function runCredentialGet(ctx: Ctx, o: CredentialRef): Promise<void> {
  const c = await ctx.api();
  await ctx.out.item(shown(await inParent(c, vaults, o.vault, (vault) => vaults.credentials.get(c, vault, o.id))), CREDENTIAL_COLUMNS);
}

export async function runCredentialCreate(ctx: Ctx, o: CredentialWrite): Promise<void> {
  const body = await credentialBody(ctx, o, (b) => NEEDS_VALUE.includes(b.type as string));
  for (const r of ['name', 'type']) if (body[r] === undefined) throw new UsageError(`credential ${r} is required (--${r} or --data)`);
  if (NEEDS_VALUE.includes(body.type as string) && body.value === undefined) {
    throw new UsageError(`a ${String(body.type)} credential needs a value: --value-stdin, --value - or --value-file`);
  }
  const key = idempotencyKey(o);
  const c = await ctx.api();
  const made = await createInParent(c, vaults, o.vault, key, (vault, k) => vaults.credentials.create(c, vault, body, k));
  await ctx.out.item(shown(made), CREDENTIAL_COLUMNS);
}

export async function runCredentialUpdate(ctx: Ctx, o: CredentialWrite): Promise<void> {
  const body = await credentialBody(ctx, o, () => false);
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --name, --egress-environment, a value or --data');
  const c = await ctx.api();
  await ctx.out.item(shown(await inParent(c, vaults, o.vault, (vault) => vaults.credentials.update(c, vault, o.id!, body))), CREDENTIAL_COLUMNS);
}

export async function runCredentialDelete(ctx: Ctx, o: CredentialRef): Promise<void> {
  const c = await ctx.api();
  await done(ctx, o.id, shown(await inParent(c, vaults, o.vault, (vault) => vaults.credentials.delete(c, vault, o.id))), 'deleted');
}

/** `svc vaults credentials list|get|create|update|delete VAULT [CRED]`. */
export function addCredentials(vaultsCmd: Command, kit: Kit): void {
  const group = vaultsCmd.command('credentials').description('Manage the credentials of a vault (values are write-only)');

  addChildList(group, kit, {
    name: 'list',
    parent: { arg: '<vault>', description: 'vault ID or name' },
    description: 'List the credentials of a vault',
    columns: CREDENTIAL_COLUMNS,
    examples: ['svc vaults credentials list VAULT_ID', 'svc vaults credentials list VAULT_ID -o json --jq ".[].name"'],
    items: async (ctx, vault, lo) => {
      const c = await ctx.api();
      return mapAsync(await listInParent(c, vaults, vault, (id) => vaults.credentials.list(c, id, {}, lo)), (cred) => shown(cred)!);
    },
  });

  const get = group
    .command('get')
    .argument('<vault>', 'vault ID or name')
    .argument('<credential>', 'credential ID')
    .description('Show one credential (never its value)');
  examples(get, ['svc vaults credentials get VAULT_ID CRED_ID']);
  get.action(kit.verb(parseCredentialRef, runCredentialGet));

  const create = addFlags(
    group
      .command('create')
      .argument('<vault>', 'vault ID or name')
      .description('Create a credential; the value comes from standard input, a file or a hidden prompt, never the command line'),
    CREDENTIAL_CREATE_FLAGS,
  );
  examples(create, [
    'printf %s "$TOKEN" | svc vaults credentials create VAULT_ID --name github --type static_bearer --value-stdin',
    'svc vaults credentials create VAULT_ID --name DB_URL --type environment_variable --value-file ./db-url.txt',
  ]);
  create.action(kit.verb(parseCredentialWrite, runCredentialCreate));

  const update = addFlags(
    group
      .command('update')
      .argument('<vault>', 'vault ID or name')
      .argument('<credential>', 'credential ID')
      .description('Update a credential (PATCH); a new value comes from standard input or a file'),
    CREDENTIAL_UPDATE_FLAGS,
  );
  examples(update, [
    'svc vaults credentials update VAULT_ID CRED_ID --value-file ./new-token.txt',
    'svc vaults credentials update VAULT_ID CRED_ID --name renamed',
  ]);
  update.action(kit.verb(parseCredentialWrite, runCredentialUpdate));

  const del = group.command('delete').argument('<vault>', 'vault ID or name').argument('<credential>', 'credential ID').description('Delete a credential');
  examples(del, ['svc vaults credentials delete VAULT_ID CRED_ID']);
  del.action(kit.verb(parseCredentialRef, runCredentialDelete));
}
