/**
 * The update notice: at most once a day, a detached `svc __update-check` asks the package's registry document for
 * the newest version and caches it; a later run on a terminal reads the cache and prints one stderr line when a newer
 * svc is out. Never with CI set, off a terminal, under --no-input or SVC_NO_UPDATE_NOTIFIER=1; nothing here ever
 * waits on the network or fails a command. The package is svc's own name (SVC_PACKAGE, package.json's `name`), and a
 * document that is not svc's own is never believed (src/update/check.ts).
 */
import { closeSync } from 'node:fs';
import { cacheRoot, type Env } from '../config/paths';
import { openOwnFolders, readOwnFile, writeOwnFile } from '../startup/cache-folder';
import { SVC_PACKAGE } from '../version';
import { compareVersions, parseVersion } from './semver';

export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
const FILE = 'update-check.json';

/** What the check reads: a package's registry document, at the registry or where SVC_UPDATE_URL points. */
export interface UpdateSource {
  url: string;
  name: string;
}

/** The npm registry's document of `name`, as `npm view NAME` reads it (a scope's `/` escaped, as npm does). */
export const registryUrl = (name: string): string => `https://registry.npmjs.org/${name.replace('/', '%2F')}`;

export function updateSource(env: Env, name = SVC_PACKAGE): UpdateSource {
  return { url: env.SVC_UPDATE_URL || registryUrl(name), name };
}

export interface UpdateState {
  /** When the registry was last asked (ms), whatever it answered. */
  checkedAt: number;
  /** The newest version it named, if it answered. */
  latest?: string;
  /** When the notice was last printed (ms). */
  notifiedAt?: number;
  /** Where the answer came from: a cache of another source (a changed SVC_UPDATE_URL or name) is checked afresh. */
  source?: UpdateSource;
}

/** Whether this run may show a notice or start a check: a terminal on stderr, a person at it, not opted out. */
export function noticeAllowed(env: Env, stderrIsTTY: boolean, argv: string[]): boolean {
  if (!stderrIsTTY || env.CI || env.SVC_NO_UPDATE_NOTIFIER === '1' || argv.includes('--no-input')) return false;
  return true;
}

/** The cache folder held open (`$XDG_CACHE_HOME/svc`, checked as the compile cache's is), or undefined: no notice. */
export function openUpdateFolder(env: Env): number | undefined {
  const root = cacheRoot(env);
  return root ? openOwnFolders(root, ['svc']) : undefined;
}

/** The cache, when it is of `source`: one of another source (or none named) is as good as none. */
export function readState(folder: number, source: UpdateSource): UpdateState | undefined {
  try {
    // Opened as the stats cache's files are: never through a link, and only a file of the user's own is trusted.
    const raw = readOwnFile(folder, FILE);
    if (!raw) return undefined;
    const data = JSON.parse(raw.toString('utf8')) as Partial<UpdateState>;
    if (!Number.isFinite(data.checkedAt) || data.source?.url !== source.url || data.source?.name !== source.name) return undefined;
    return { checkedAt: data.checkedAt!, latest: typeof data.latest === 'string' ? data.latest : undefined, notifiedAt: data.notifiedAt, source };
  } catch {
    return undefined;
  }
}

/** Written 0600 beside it and renamed over it, in the user's own folder: a link there is replaced, never followed. */
export function writeState(folder: number, state: UpdateState): void {
  writeOwnFile(folder, FILE, JSON.stringify(state));
}

/** What to do this run: print a notice for `latest`, start a check, both, or nothing. */
export function plan(state: UpdateState | undefined, current: string, now: number): { notice?: string; check: boolean } {
  const check = !state || now - state.checkedAt >= CHECK_EVERY_MS || now < state.checkedAt;
  const latest = state?.latest;
  const due = !state?.notifiedAt || now - state.notifiedAt >= CHECK_EVERY_MS || now < state.notifiedAt;
  return { check, notice: latest && due && newer(latest, current) ? latest : undefined };
}

/**
 * Whether `a` is a release newer than `b` by semver's precedence (src/update/semver.ts): 1.0.0 is offered to a user of
 * 1.0.0-beta.1; a pre-release is never offered.
 */
export function newer(a: string, b: string): boolean {
  if (parseVersion(a)?.pre.length !== 0) return false;
  return (compareVersions(a, b) ?? 0) > 0;
}

/** The one line: the new version and the command that upgrades svc the way it was installed (by its own name). */
export function noticeLine(current: string, latest: string, executable: boolean, name = SVC_PACKAGE): string {
  const how = executable ? `replace this executable with the ${latest} build` : `npm install -g ${name}@latest`;
  return `svc ${latest} is out (this is ${current}): ${how}; SVC_NO_UPDATE_NOTIFIER=1 silences this`;
}

/** How the check is started: detached, so this run exits at once and the check finishes on its own. */
export type StartCheck = (env: Env) => void;

/**
 * After a command: print the notice when one is due and start a check when the last is a day old. The check's time is
 * written before it starts, so runs in the meantime start none. Any failure here is silent.
 */
export function afterCommand(
  o: { env: Env; stderrIsTTY: boolean; argv: string[]; current: string; now: number; executable: boolean },
  print: (line: string) => void,
  start: StartCheck,
): void {
  if (!noticeAllowed(o.env, o.stderrIsTTY, o.argv)) return;
  const folder = openUpdateFolder(o.env);
  if (folder === undefined) return;
  try {
    const source = updateSource(o.env);
    const state = readState(folder, source);
    const { notice, check } = plan(state, o.current, o.now);
    if (!notice && !check) return;
    writeState(folder, { checkedAt: check ? o.now : state!.checkedAt, latest: state?.latest, notifiedAt: notice ? o.now : state?.notifiedAt, source });
    if (notice) print(noticeLine(o.current, notice, o.executable));
    if (check) start(o.env);
  } catch {
    // a cache that cannot be read or written means no notice, never a failed command
  } finally {
    closeSync(folder);
  }
}
