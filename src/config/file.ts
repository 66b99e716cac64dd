import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors';
import { isObject } from '../is-object';

export const PROFILE_KEYS = ['base_url', 'api_key', 'environment_key', 'output'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export const SECRET_KEYS: ReadonlySet<string> = new Set(['api_key', 'environment_key']);

export type Profile = Partial<Record<ProfileKey, string>>;
export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

/**
 * Reads the config file with plain JSON.parse so the read path needs no schema library.
 * A missing file is an empty config; anything unreadable or malformed is a ConfigError naming the file.
 */
export function readConfig(file: string): ConfigData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { profiles: {} };
    throw new ConfigError(`cannot read config file ${file}: ${code ?? (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config file ${file} is not valid JSON (${(e as Error).message}); fix or remove it`);
  }
  if (!isObject(data) || (data.profiles !== undefined && !isObject(data.profiles))) {
    throw new ConfigError(`config file ${file} does not hold a config object; fix or remove it`);
  }
  const profiles: Record<string, Profile> = {};
  for (const [name, p] of Object.entries((data.profiles ?? {}) as Record<string, unknown>)) {
    if (!isObject(p)) throw new ConfigError(`config file ${file}: profile "${name}" is not an object; fix or remove it`);
    profiles[name] = p as Profile;
  }
  const current = data.current_profile;
  if (current !== undefined && typeof current !== 'string') {
    throw new ConfigError(`config file ${file}: current_profile is not a string; fix or remove it`);
  }
  return { current_profile: current, profiles };
}

/**
 * Writes the whole config atomically (conf writes a temp file and renames it), file 0600, folder 0700.
 * conf is loaded only here, so reading config never pulls in its schema validator.
 */
export async function writeConfig(file: string, data: ConfigData): Promise<void> {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { default: Conf } = await import('conf');
  const name = file.slice(dir.length + 1).replace(/\.json$/, '');
  const store = new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: name,
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  store.store = data as unknown as Record<string, unknown>;
  chmodSync(file, 0o600);
}

/** Reads, applies `change`, writes: the file is never left half-written. */
export async function updateConfig(file: string, change: (data: ConfigData) => void): Promise<ConfigData> {
  const data = readConfig(file);
  change(data);
  await writeConfig(file, data);
  return data;
}
