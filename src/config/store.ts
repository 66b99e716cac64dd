import Conf from 'conf';
import { lstatSync, readdirSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../runtime/errors';
import { MiB } from '../wire/limits';
import { checkConfigFile, checkFolder, ensureFolder } from './folder';
import { parseConfig, profileMap, type ConfigData } from './shape';

/*
 * The store is conf. What svc adds around it, as conf leaves each to its caller:
 * - the folder checks before conf touches anything (conf's `mkdir -p` takes any folder as it is, and spins under /proc);
 * - the file checked to be a regular file of a sane size before conf reads it (a FIFO would never end);
 * - its own parser, since V8's JSON.parse messages quote the text and the text holds keys;
 * - the lock around each read-modify-write (conf does not support several writing processes) and, under it, the removal
 *   of temp files a killed writer left.
 * conf writes through `atomically`: a temp file beside the file, opened without O_EXCL under a name of the clock and
 * a random part, then renamed over it. That is safe because the folder it is made in (the link's target's, for a
 * linked file) has been checked to be the user's own and writable by no one else: no one else can plant a link there.
 */

// Assumption: a config file of more than 1 MiB is not one svc wrote (a profile is a few hundred bytes).
const MAX_CONFIG_BYTES = MiB;

const openStore = (file: string): Conf<ConfigData> =>
  new Conf<ConfigData>({
    projectName: 'svc',
    // Where svc has always kept the file (paths.ts), rather than conf's own choice of folder.
    cwd: dirname(file),
    configName: basename(file, '.json'),
    fileExtension: 'json',
    configFileMode: 0o600,
    // A corrupt file is the user's to fix: never replaced by an empty one.
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    deserialize: (text) => parseConfig(text, file),
  });

/** conf's store as a plain ConfigData (conf hands out an object without a prototype). */
const plain = ({ current_profile, profiles, aliases }: ConfigData): ConfigData => ({ current_profile, profiles, ...(aliases && { aliases }) });

/** Reads the config. A missing file is an empty config, read without conf, which would create the folder. */
export function readConfig(file: string): ConfigData {
  if (checkFile(file) === undefined) return { profiles: profileMap() };
  return throughConf(file, 'read', () => plain(openStore(file).store));
}

/** Reads, applies `change`, writes, all under the config's lock: concurrent writers never lose a change. */
export async function updateConfig(file: string, change: (data: ConfigData) => void, signal?: AbortSignal): Promise<ConfigData> {
  ensureFolder(dirname(file));
  // Loaded on writes only.
  const { withFileLock } = await import('./lock');
  return withFileLock(
    file,
    () => {
      const real = checkFile(file);
      const store = throughConf(file, 'read', () => openStore(file));
      const data = real === undefined ? { profiles: profileMap() } : throughConf(file, 'read', () => plain(store.store));
      change(data);
      throughConf(file, 'write', () => writeAtomically(store, data));
      removeLeftTemps(real ?? file);
      return data;
    },
    signal,
  );
}

/**
 * Checks the file before conf reads it: undefined when there is none yet, else the path conf's writer works beside
 * (a link's target, whose folder must pass the config folder's checks). Reading a FIFO or a device would wait or never
 * end.
 */
function checkFile(file: string): string | undefined {
  checkFolder(dirname(file));
  try {
    const real = lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
    if (real !== file) checkFolder(dirname(real));
    const st = statSync(real);
    if (!st.isFile()) throw new ConfigError(`config file ${file} is not a regular file; fix or remove it`);
    checkConfigFile(file, st);
    if (st.size > MAX_CONFIG_BYTES) throw new ConfigError(`config file ${file} is larger than ${MAX_CONFIG_BYTES / MiB} MiB; fix or remove it`);
    return real;
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read config file ${file}: ${code ?? (e as Error).message}`);
  }
}

/** Runs conf's part: what it throws besides svc's own ConfigError is a file system error, told by its code alone. */
function throughConf<T>(file: string, verb: 'read' | 'write', work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`cannot ${verb} config file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).name}`);
  }
}

/**
 * conf writes in place, with no temp file, where SNAP is set (a workaround for snap confinement). svc is no snap, but
 * a process started from one (an editor's terminal) may inherit SNAP; svc's writes stay atomic.
 */
function writeAtomically(store: Conf<ConfigData>, data: ConfigData): void {
  const snap = process.env.SNAP;
  delete process.env.SNAP;
  try {
    store.store = data;
  } finally {
    if (snap !== undefined) process.env.SNAP = snap;
  }
}

/** A writer's temp file beside `config.json`: atomically's `config.json.tmp-<clock><random>`, or svc's own before conf. */
const TEMP = /^(.*)\.(?:tmp-\d{10}[0-9a-f]{6}|\d+-[a-z0-9]+\.tmp)$/;

/**
 * Removes temp files a writer killed mid-write left beside the file. Called under the lock, which every writer holds
 * through the whole of its synchronous write, and which is broken only when its holder is gone or older than any write
 * takes: no temp file there belongs to a writer still at work.
 */
function removeLeftTemps(file: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (TEMP.exec(name)?.[1] !== basename(file)) continue;
    try {
      unlinkSync(join(dirname(file), name));
    } catch {
      // gone already
    }
  }
}
