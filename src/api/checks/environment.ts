import { UsageError } from '../../runtime/errors';
import { isObject } from '../../wire/is-object';
import { ENVIRONMENT_TYPES, PROXY_MODES } from '../environments';

type Doc = Record<string, any>;

/** The enums of `config`, checked before any request. */
export function checkEnvironment(doc: Doc): void {
  const c = doc.config;
  if (c === undefined) return;
  if (!isObject(c)) throw new UsageError('config must be an object such as {"type":"cloud"}');
  if (!(ENVIRONMENT_TYPES as readonly unknown[]).includes(c.type))
    throw new UsageError(`config.type must be one of ${ENVIRONMENT_TYPES.join(', ')} (got ${JSON.stringify(c.type)})`);
  if (c.proxy === undefined) return;
  if (c.type !== 'cloud') throw new UsageError('config.proxy applies to cloud environments only');
  if (!isObject(c.proxy) || !(PROXY_MODES as readonly unknown[]).includes(c.proxy.mode)) {
    throw new UsageError(`config.proxy.mode must be one of ${PROXY_MODES.join(', ')} (got ${JSON.stringify(isObject(c.proxy) ? c.proxy.mode : c.proxy)})`);
  }
  if (c.proxy.hosts !== undefined && !(Array.isArray(c.proxy.hosts) && c.proxy.hosts.every((h: unknown) => typeof h === 'string'))) {
    throw new UsageError('config.proxy.hosts must be a list of host names');
  }
}
