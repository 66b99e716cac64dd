import { KeychainUnavailable, systemKeychain, KeychainError, type Keychain } from './keychain';
import type { Env } from './paths';
import { KEYCHAIN_REFS, type ConfigData, type Profile } from './shape';
import { readConfig, updateConfig } from './store';

/** A profile's secret: what `auth login` and `config set KEY -` store, and `auth logout`/`config unset` remove. */
export type SecretKey = keyof typeof KEYCHAIN_REFS;

export interface SecretTarget {
  file: string;
  profile: string;
  key: SecretKey;
  env: Env;
  signal?: AbortSignal;
}

export interface Saved {
  /** The keychain's name when the secret went there; undefined for the config file. */
  keychain?: string;
  /** Why a secret meant for the keychain went to the file instead. */
  notice?: string;
}

const what = (key: SecretKey): string => (key === 'api_key' ? 'API key' : 'environment key');

/**
 * Stores the secret in the system keychain where there is one (the profile then records only the entry's ID), else,
 * or with `insecure`, in the 0600 config file. A keychain that does not answer in time is exit 4, never a silent fall
 * back to the file. `change` makes the profile's other edits in the same write.
 */
export async function saveSecret(t: SecretTarget, value: string, insecure: boolean, change?: (data: ConfigData, p: Profile) => void): Promise<Saved> {
  const ref = KEYCHAIN_REFS[t.key];
  const oldId = readConfig(t.file).profiles[t.profile]?.[ref];
  let kc: Keychain | string | undefined;
  let stored: { kc: Keychain; id: string } | undefined;
  let reason: string | undefined;
  if (!insecure || oldId) kc = systemKeychain(t.env);
  if (!insecure) {
    if (typeof kc === 'string') reason = kc;
    else if (kc) {
      // The profile's entry is replaced in place, so a second login leaves no orphan behind.
      const id = oldId ?? crypto.randomUUID();
      try {
        kc.store(id, `svc ${what(t.key)} (profile ${t.profile})`, value);
        stored = { kc, id };
      } catch (e) {
        if (!(e instanceof KeychainUnavailable)) throw e;
        reason = e.message;
      }
    }
  }
  await updateConfig(
    t.file,
    (data) => {
      const p = (data.profiles[t.profile] ??= {});
      if (stored) {
        delete p[t.key];
        p[ref] = stored.id;
      } else {
        p[t.key] = value;
        delete p[ref];
      }
      change?.(data, p);
    },
    t.signal,
  );
  let notice = reason && `note: no system keychain here (${reason}); the ${what(t.key)} is in ${t.file} (mode 0600)`;
  if (!stored && oldId && typeof kc === 'object') {
    try {
      kc.remove(oldId);
    } catch (e) {
      notice = `note: the ${what(t.key)}'s old entry in ${kc.name} could not be removed: ${(e as Error).message}`;
    }
  }
  return { keychain: stored?.kc.name, notice };
}

/** Removes the profile's secret from wherever it is; returns that place (the keychain's name or the file), or undefined for none. */
export async function removeSecret(t: SecretTarget): Promise<string | undefined> {
  const ref = KEYCHAIN_REFS[t.key];
  const p = readConfig(t.file).profiles[t.profile];
  const id = p?.[ref];
  let where: string | undefined = p?.[t.key] ? t.file : undefined;
  if (id) {
    const kc = systemKeychain(t.env);
    if (typeof kc === 'string') {
      throw new KeychainError(`the ${what(t.key)} of profile ${t.profile} is in the system keychain, which svc cannot reach here: ${kc}`);
    }
    kc.remove(id);
    where = kc.name;
  }
  if (!where) return undefined;
  await updateConfig(
    t.file,
    (data) => {
      const q = data.profiles[t.profile];
      if (!q) return;
      delete q[t.key];
      delete q[ref];
    },
    t.signal,
  );
  return where;
}
