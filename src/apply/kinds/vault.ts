import { CREDENTIAL_TYPES, vaults } from '../../api/vaults';
import { UsageError } from '../../runtime/errors';
import { isObject } from '../../wire/is-object';
import type { Body, KindSpec } from '../types';
import { checkValueFrom } from '../secrets';
import { KIND_NAMES } from '../names';

const CREDENTIAL_FIELDS = ['name', 'type', 'value_from', 'egress_environment', 'egress_environment_id'];

/** A vault's `credentials` in a document: known members, a type, and a secret only through `value_from`. */
export function checkCredentials(body: Body): void {
  const list = body.credentials;
  if (list === undefined) return;
  if (!Array.isArray(list)) throw new UsageError('credentials must be a list of {name, type, value_from}');
  const names = new Set<string>();
  list.forEach((c: unknown, i: number) => {
    const at = `credentials[${i}]`;
    if (!isObject(c)) throw new UsageError(`${at} must be an object {name, type, value_from}`);
    if ('value' in c) throw new UsageError(`${at}.value: secrets never live in the files; use value_from: {env: NAME} or {file: PATH}`);
    for (const k of Object.keys(c))
      if (!CREDENTIAL_FIELDS.includes(k)) throw new UsageError(`${at}: unknown field "${k}" (known: ${CREDENTIAL_FIELDS.join(', ')})`);
    if (typeof c.name !== 'string' || c.name === '') throw new UsageError(`${at} needs a name`);
    if (names.has(c.name)) throw new UsageError(`${at}: credential "${c.name}" is listed twice`);
    names.add(c.name);
    if (!(CREDENTIAL_TYPES as readonly unknown[]).includes(c.type)) throw new UsageError(`${at}.type must be one of ${CREDENTIAL_TYPES.join(', ')}`);
    if (c.value_from !== undefined) checkValueFrom(c.value_from, `${at}.value_from`);
    else if (c.type !== 'mcp_oauth') throw new UsageError(`${at}: a ${c.type} credential needs value_from: {env: NAME} or {file: PATH}`);
  });
}

export const vault: KindSpec = {
  ...KIND_NAMES.Vault,
  api: vaults,
  fields: ['name', 'description', 'metadata'],
  applyFields: ['credentials'],
  required: ['name'],
  refs: [{ at: 'credentials.*', from: 'egress_environment', to: 'egress_environment_id', kind: 'Environment' }],
  check: checkCredentials,
};
