import { PROXY_MODES } from '../../api/environments';
import { UsageError } from '../../runtime/errors';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { isObject } from '../../wire/is-object';

/** `--self-hosted` / `--cloud`, `--proxy-mode`, `--proxy-host` (repeatable): the flags that build `config`. */
export const CONFIG_FLAGS = flagTable({
  selfHosted: { flags: '--self-hosted', description: 'sandbox tools run on your own worker (config.type self_hosted)', conflicts: 'cloud' },
  cloud: { flags: '--cloud', description: 'sandbox tools run in the service (config.type cloud)' },
  proxyMode: { flags: '--proxy-mode <mode>', description: 'outbound proxy of a cloud environment', choices: PROXY_MODES },
  proxyHost: { flags: '--proxy-host <host>', description: 'host of the proxy list (repeatable)', repeat: true },
});

/** The flags that build `config`, as commander parses them. */
export type ConfigFlags = FlagsOf<typeof CONFIG_FLAGS>;

/**
 * `config` from the flags merged over the one in --data; undefined when neither gives one. PATCH replaces
 * `config` whole, so an update names the mode it keeps. Proxy flags mean a cloud environment.
 */
export function configFromFlags(opts: ConfigFlags, base: unknown): unknown {
  const wantsProxy = opts.proxyMode !== undefined || opts.proxyHost !== undefined;
  if (!opts.selfHosted && !opts.cloud && !wantsProxy) return base;
  if (opts.selfHosted) {
    if (wantsProxy) throw new UsageError('--proxy-mode and --proxy-host apply to cloud environments, not to --self-hosted');
    return { type: 'self_hosted' };
  }
  const b = isObject(base) && base.type === 'cloud' && isObject(base.proxy) ? base.proxy : undefined;
  const mode = opts.proxyMode ?? b?.mode;
  if (opts.proxyHost && mode === undefined) throw new UsageError('--proxy-host needs --proxy-mode route_all or limited');
  return mode === undefined ? { type: 'cloud' } : { type: 'cloud', proxy: { mode, hosts: opts.proxyHost ?? b?.hosts ?? [] } };
}
