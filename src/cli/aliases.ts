import { UsageError } from '../runtime/errors';
import { splitWords } from '../text/shell-words';

export { splitWords };

/*
 * `svc alias`: gh's aliases. An expansion is svc's own words (`$1`… take the arguments, the rest are appended), or,
 * after a leading `!`, a line for `sh -c` with the arguments as "$@". Kept global, not per profile, as gh keeps them.
 */

/** What an alias's name may be: a word a shell passes as is, never taken for an option or a path. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** An alias run: svc's own argv (the alias's words in place of its name), or a shell line with its arguments. */
export type Expanded = { argv: string[] } | { shell: string; args: string[] };

/** The alias `name` for `expansion`, checked; `isCommand` says which names svc's own commands hold. */
export function checkAlias(name: string, expansion: string, aliases: Record<string, string>, isCommand: (w: string) => boolean, clobber = false): void {
  if (!NAME.test(name)) throw new UsageError(`invalid alias name "${name}": use letters, digits, - and _, starting with a letter or digit`);
  if (isCommand(name)) throw new UsageError(`"${name}" is a svc command; an alias may not shadow it`);
  if (!clobber && Object.hasOwn(aliases, name))
    throw new UsageError(`"${name}" is already an alias (for ${aliases[name]}); replace it with --clobber, or delete it with svc alias delete ${name}`);
  // The config and `svc alias list` would hold the key in the clear: a key belongs in a profile or SVC_API_KEY.
  if (expansion.includes('--api-key'))
    throw new UsageError(`alias "${name}": an alias may not hold --api-key; keep the key in a profile (svc auth login) or SVC_API_KEY`);
  if (expansion.startsWith('!')) {
    if (!expansion.slice(1).trim()) throw new UsageError(`alias "${name}": a shell alias needs a command after the !`);
    return;
  }
  const first = splitWords(expansion)[0];
  if (first === undefined) throw new UsageError(`alias "${name}": the expansion is empty`);
  if (!isCommand(first)) throw new UsageError(`alias "${name}": the expansion must start with a svc command, not "${first}" (a shell line starts with !)`);
}

/** The alias run with `args`: each `$N` takes the Nth argument, the arguments no `$N` took are appended. */
export function expandAlias(name: string, expansion: string, args: string[]): Expanded {
  if (expansion.startsWith('!')) return { shell: expansion.slice(1), args };
  const used = new Set<number>();
  const words = splitWords(expansion).map((w) =>
    w.replace(/\$(\d+)/g, (_, n: string) => {
      const i = Number(n);
      if (i < 1 || i > args.length) throw new UsageError(`alias "${name}" (${expansion}) needs an argument for $${n}; ${args.length} given`);
      used.add(i - 1);
      return args[i - 1];
    }),
  );
  return { argv: [...words, ...args.filter((_, i) => !used.has(i))] };
}
