import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../errors';
import { jsonSyntaxError } from '../input/position';
import { isObject } from '../is-object';
import { MiB } from '../wire/limits';

export const PROFILE_KEYS = ['base_url', 'api_key', 'environment_key', 'output'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export const SECRET_KEYS: ReadonlySet<string> = new Set(['api_key', 'environment_key']);

export type Profile = Partial<Record<ProfileKey, string>>;
export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

// Assumption: a config file of more than 1 MiB is not one svc wrote (a profile is a few hundred bytes).
const MAX_CONFIG_BYTES = MiB;

/**
 * Reads the config file with plain JSON.parse so the read path needs no schema library. A missing file is
 * an empty config; anything unreadable, malformed or mistyped is a ConfigError naming the file (and the key),
 * never quoting its content, which holds keys.
 */
export function readConfig(file: string): ConfigData {
  checkFolder(dirname(file));
  let text: string;
  try {
    // Checked first: reading a FIFO or a device would wait or never end.
    const st = statSync(file);
    if (!st.isFile()) throw new ConfigError(`config file ${file} is not a regular file; fix or remove it`);
    if (st.size > MAX_CONFIG_BYTES) throw new ConfigError(`config file ${file} is larger than ${MAX_CONFIG_BYTES / MiB} MiB; fix or remove it`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { profiles: {} };
    throw new ConfigError(`cannot read config file ${file}: ${code ?? (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`config file ${file} is not valid JSON (${jsonSyntaxError(text)}); fix or remove it`);
  }
  if (!isObject(data) || (data.profiles !== undefined && !isObject(data.profiles))) {
    throw new ConfigError(`config file ${file} does not hold a config object; fix or remove it`);
  }
  const profiles: Record<string, Profile> = {};
  for (const [name, p] of Object.entries((data.profiles ?? {}) as Record<string, unknown>)) {
    if (!isObject(p)) throw new ConfigError(`config file ${file}: profile "${name}" is not an object; fix or remove it`);
    for (const key of PROFILE_KEYS) {
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
  return { current_profile: current, profiles };
}

/**
 * A config folder must be the user's own (or root's) and writable by no one else: a file planted there would be read as
 * the user's config (its base_url receiving their key), a link planted there could receive what svc writes. A folder
 * that is not is refused rather than chmod-ed, as it may be a shared one (`SVC_CONFIG_DIR=/tmp`). Missing is fine.
 */
function checkFolder(dir: string, st?: Stats): void {
  try {
    st ??= statSync(dir);
  } catch {
    return; // missing, or not a folder: reading the file beneath it says so
  }
  const uid = process.getuid?.();
  if (uid === undefined || !st.isDirectory()) return;
  if (st.uid !== uid && st.uid !== 0) throw new ConfigError(`config folder ${dir} belongs to another user (uid ${st.uid}); use a folder of your own`);
  if ((st.mode & 0o022) !== 0)
    throw new ConfigError(`config folder ${dir} is writable by others (mode ${(st.mode & 0o7777).toString(8)}); make it private (chmod 700 ${dir})`);
}

/**
 * Makes the config folder (0700). Node's recursive mkdir spins forever where a parent cannot hold folders
 * (`/proc/x`), so each missing level is made here, and every failure names the folder. An existing config folder is
 * checked, never chmod-ed.
 */
export function ensureFolder(dir: string): void {
  const fail = (what: string, e: unknown) => new ConfigError(`cannot ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    let st;
    try {
      st = statSync(d, { throwIfNoEntry: false });
    } catch (e) {
      throw fail(`create config folder ${dir}`, e);
    }
    if (st?.isDirectory()) {
      if (d === dir) checkFolder(dir, st);
      break;
    }
    if (st) throw new ConfigError(`cannot create config folder ${dir}: ${d} is not a folder`);
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fail(`create config folder ${dir}`, e);
    }
    try {
      // mkdir's mode is narrowed by the umask; this states it exactly.
      chmodSync(d, 0o700);
    } catch (e) {
      throw fail(`make config folder ${d} private (mode 0700)`, e);
    }
  }
  checkFolder(dir);
}

/** svc's temp files beside `file`: `config.json.PID-NONCE.tmp`. */
const tempName = (file: string, nonce: string) => `${file}.${process.pid}-${nonce}.tmp`;
const TEMP = /^(.*)\.(\d+)-[a-z0-9]+\.tmp$/;

/**
 * Writes the whole config atomically: a temporary file of its own random name beside it, created exclusively (a
 * planted file or link there is never written through), mode 0600, flushed, then renamed over it.
 */
function writeConfig(file: string, data: ConfigData, nonce: string): void {
  const tmp = tempName(file, nonce);
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeFileSync(fd, JSON.stringify(data, null, '\t'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never made, or already renamed
    }
    throw new ConfigError(`cannot write config file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Removes temp files svc left beside `file` when killed mid-write (their writer is gone); called under the lock. */
function removeLeftTemps(file: string, alive: (pid: number) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || m[1] !== basename(file) || alive(Number(m[2]))) continue;
    try {
      unlinkSync(join(dirname(file), name));
    } catch {
      // gone already
    }
  }
}

/** Reads, applies `change`, writes, all under the config's lock: concurrent writers never lose a change. */
export async function updateConfig(file: string, change: (data: ConfigData) => void, signal?: AbortSignal): Promise<ConfigData> {
  ensureFolder(dirname(file));
  // Loaded on writes only: reading the config (every command) stays one small module.
  const { alive, nonce, withFileLock } = await import('./lock');
  return withFileLock(
    file,
    () => {
      const data = readConfig(file);
      change(data);
      writeConfig(file, data, nonce());
      removeLeftTemps(file, alive);
      return data;
    },
    signal,
  );
}
