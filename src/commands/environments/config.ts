import { Option, type Command } from 'commander';
import { PROXY_MODES } from '../../api/environments';
import { UsageError } from '../../runtime/errors';
import { collect } from '../../cli/flags';
import { isObject } from '../../wire/is-object';

/** `--self-hosted` / `--cloud`, `--proxy-mode`, `--proxy-host` (repeatable): the flags that build `config`. */
export function addConfigFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--self-hosted', 'sandbox tools run on your own worker (config.type self_hosted)').conflicts('cloud'))
    .addOption(new Option('--cloud', 'sandbox tools run in the service (config.type cloud)'))
    .addOption(new Option('--proxy-mode <mode>', 'outbound proxy of a cloud environment').choices(PROXY_MODES))
    .addOption(new Option('--proxy-host <host>', 'host of the proxy list (repeatable)').argParser(collect));
}

/** The flags that build `config`, as commander parses them. */
export interface ConfigFlags {
  selfHosted?: boolean;
  cloud?: boolean;
  proxyMode?: string;
  proxyHost?: string[];
}

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
