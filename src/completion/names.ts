import type { Option } from 'commander';

/** Placeholders that say nothing about what they name; the option's long name says it instead (`--version <n>`). */
const GENERIC_PLACEHOLDERS = new Set(['id', 'n', 'v', 'path']);

/** The name an option's value goes by: its placeholder, or its long name when the placeholder is generic. */
export function optionValueName(opt: Option): string {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(opt.flags)?.[1] ?? '';
  return GENERIC_PLACEHOLDERS.has(placeholder) ? (opt.long ?? '').replace(/^--/, '') : placeholder;
}

/** A local path (`file`), or a body that may be `@path` (`--data <json|@file|@->`). */
export type PathKind = 'file' | '@file';

/**
 * The one rule for values the shell completes as file names, by argument or value name:
 * `file`, `dir` and names ending in `-file` / `-dir` (`<file>`, `--output-file <path>`, `--workdir <dir>`),
 * and placeholders offering `@file`. `file_id` is a service file's ID, not a path.
 */
export function pathKind(name: string): PathKind | undefined {
  const n = name
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/\.\.\.$/, '');
  if (n.split('|').includes('@file')) return '@file';
  return /(^|-)(file|dir)$/.test(n) ? 'file' : undefined;
}
