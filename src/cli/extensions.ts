import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../config/paths';
import { findProgram, isExecutableFile, pathDirs } from '../fs/find-program';

/*
 * Extensions, as gh's and kubectl's plugins: an executable `svc-NAME` on PATH runs as `svc NAME`. The first on PATH
 * wins, as the shell's lookup does; a command or an alias of the same name wins over it.
 */

const PREFIX = 'svc-';
/** A name that is one file name: no path, never an option. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface Extension {
  name: string;
  path: string;
}

/** The executable `svc-NAME` on PATH, or undefined. */
export function findExtension(name: string, env: Env): Extension | undefined {
  if (!NAME.test(name)) return undefined;
  const path = findProgram(PREFIX + name, env);
  return path ? { name, path } : undefined;
}

/** Every extension on PATH, by name, the first of each name; `hidden` says which names a command or alias holds. */
export function listExtensions(env: Env, hidden: (name: string) => boolean = () => false): Extension[] {
  const found = new Map<string, Extension>();
  for (const dir of pathDirs(env)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(PREFIX.length);
      if (!file.startsWith(PREFIX) || !NAME.test(name) || found.has(name) || hidden(name)) continue;
      const path = join(dir, file);
      if (isExecutableFile(path)) found.set(name, { name, path });
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
