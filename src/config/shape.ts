import { ConfigError } from '../runtime/errors';
import { jsonSyntaxError } from '../input/position';
import { isObject } from '../wire/is-object';

export const PROFILE_KEYS = ['base_url', 'api_key', 'environment_key', 'output', 'accessible', 'ca_file'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export const SECRET_KEYS: ReadonlySet<string> = new Set(['api_key', 'environment_key']);

/** Where a secret lives when it is in the system keychain: the entry's ID there (keychain.ts), never the secret. */
export const KEYCHAIN_REFS = { api_key: 'api_key_keychain', environment_key: 'environment_key_keychain' } as const;
export type KeychainRef = (typeof KEYCHAIN_REFS)[keyof typeof KEYCHAIN_REFS];

export type Profile = Partial<Record<ProfileKey | KeychainRef, string>>;
// A type, not an interface: conf's store takes a record type.
export type ConfigData = {
  current_profile?: string;
  profiles: Record<string, Profile>;
  /** `svc alias`: name → expansion, for every profile (as gh keeps them); a null-prototype map, keyed by user input. */
  aliases?: Record<string, string>;
};

/**
 * A map of profiles by name, without a prototype: a profile may be named `__proto__`, `constructor` or `toString`, and
 * is then stored and found like any other, never confused with what every object inherits.
 */
export const profileMap = (): Record<string, Profile> => Object.create(null) as Record<string, Profile>;

/**
 * The config file's text as svc's config, with plain JSON.parse and no schema library. Anything malformed or
 * mistyped is a ConfigError naming the file (and the key), never quoting its content, which holds keys.
 */
export function parseConfig(text: string, file: string): ConfigData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`config file ${file} is not valid JSON (${jsonSyntaxError(text)}); fix or remove it`);
  }
  if (!isObject(data) || (data.profiles !== undefined && !isObject(data.profiles))) {
    throw new ConfigError(`config file ${file} does not hold a config object; fix or remove it`);
  }
  const profiles = profileMap();
  for (const [name, p] of Object.entries((data.profiles ?? {}) as Record<string, unknown>)) {
    if (!isObject(p)) throw new ConfigError(`config file ${file}: profile "${name}" is not an object; fix or remove it`);
    for (const key of [...PROFILE_KEYS, ...Object.values(KEYCHAIN_REFS)]) {
      const v = p[key];
      if (v !== undefined && typeof v !== 'string') {
        throw new ConfigError(
          `config file ${file}: ${key} of profile "${name}" is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`}, not a string; fix or remove it`,
        );
      }
    }
    profiles[name] = p as Profile;
  }
  const current = data.current_profile;
  if (current !== undefined && typeof current !== 'string') {
    throw new ConfigError(`config file ${file}: current_profile is not a string; fix or remove it`);
  }
  return { current_profile: current, profiles, ...parseAliases(data.aliases, file) };
}

function parseAliases(raw: unknown, file: string): Pick<ConfigData, 'aliases'> {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ConfigError(`config file ${file}: aliases is not an object; fix or remove it`);
  const aliases = Object.create(null) as Record<string, string>;
  for (const [name, expansion] of Object.entries(raw)) {
    if (typeof expansion !== 'string') throw new ConfigError(`config file ${file}: alias "${name}" is not a string; fix or remove it`);
    aliases[name] = expansion;
  }
  return { aliases };
}
