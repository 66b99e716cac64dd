import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../config/paths';

/*
 * The one way svc finds a program it starts (the keychain tool, the pager, `worker --on-work`, the worker's bash,
 * extensions): the PATH folders that are absolute, in order, the first executable file wins. An empty or relative
 * entry (`bin`, `.`, ``) means the working folder to sh; a program svc hands a key or a terminal to is never taken from
 * wherever the user happens to stand.
 */

/** PATH's absolute folders, in order (a drive path counts on Windows). */
export function pathDirs(env: Env): string[] {
  return (env.PATH ?? '').split(delimiter).filter((d) => d.startsWith('/') || /^[A-Za-z]:[\\/]/.test(d));
}

/** Whether the path is a regular file this user may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of the program NAME (a bare file name) in PATH's absolute folders, or undefined. */
export function findProgram(name: string, env: Env): string | undefined {
  if (!name || name.includes('/') || name.includes('\\')) return undefined;
  for (const dir of pathDirs(env)) {
    const path = join(dir, name);
    if (isExecutableFile(path)) return path;
  }
  return undefined;
}
