import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** `$SVC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
export function configDir(env: Env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'svc');
  return join(env.HOME || homedir(), '.config', 'svc');
}

export const CONFIG_FILE_NAME = 'config.json';
export const configFile = (env: Env): string => join(configDir(env), CONFIG_FILE_NAME);
