import { isAbsolute, join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** `$SVC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
export function configDir(env: Env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'svc');
  // node:os only when HOME is unset: loading it is start-up time on every command.
  return join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config', 'svc');
}

/**
 * The user's cache root, under which svc keeps compiled code (`svc/compile-cache`): `$XDG_CACHE_HOME`, else
 * `~/.cache`; undefined when there is no home to put it in. A relative path is no path (as XDG says): a cache never
 * lands in whatever folder svc happens to run in.
 */
export function cacheRoot(env: Env): string | undefined {
  const absolute = (p: string | undefined) => (p && isAbsolute(p) ? p : undefined);
  return absolute(env.XDG_CACHE_HOME) ?? (absolute(env.HOME) && join(env.HOME!, '.cache'));
}

export const CONFIG_FILE_NAME = 'config.json';
export const configFile = (env: Env): string => join(configDir(env), CONFIG_FILE_NAME);
