import { chmodSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../runtime/errors';

/**
 * A config folder must be the user's own (or root's) and writable by no one else: a file planted there would be read as
 * the user's config (its base_url receiving their key), a link planted there could receive what svc writes. A folder
 * that is not is refused rather than chmod-ed, as it may be a shared one (`SVC_CONFIG_DIR=/tmp`). Missing is fine.
 */
export function checkFolder(dir: string, st?: Stats): void {
  try {
    st ??= statSync(dir);
  } catch {
    return; // missing, or not a folder: reading the file beneath it says so
  }
  if (st.isDirectory()) checkOwn('folder', dir, st);
}

/**
 * The config file too (issue 45): in a private folder, a file others can write (0666), or one another user owns, could
 * hold a `!` alias that runs as the user, or a base_url that receives their key.
 */
export function checkConfigFile(file: string, st: Stats): void {
  checkOwn('file', file, st);
}

function checkOwn(kind: 'folder' | 'file', path: string, st: Stats): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  if (st.uid !== uid && st.uid !== 0) throw new ConfigError(`config ${kind} ${path} belongs to another user (uid ${st.uid}); use a ${kind} of your own`);
  if ((st.mode & 0o022) !== 0)
    throw new ConfigError(
      `config ${kind} ${path} is writable by others (mode ${(st.mode & 0o7777).toString(8)}); make it private (chmod ${kind === 'folder' ? 700 : 600} ${path})`,
    );
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
