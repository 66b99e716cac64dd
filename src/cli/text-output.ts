import type { Command } from 'commander';

/** What a verb's output cannot honour: any data format (it prints text: a file's bytes, a script, a key), or IDs. */
interface OutputLimit {
  why: string;
  refuses: 'formats' | 'ids';
  /** It prints JSON as received (svc api): --jq filters it, and `-o json|ndjson` asks for errors as JSON too. */
  json?: boolean;
  /** `--quiet` is the verb's own flag (svc emulator: drop the request log), not the global "print only IDs". */
  ownsQuiet?: boolean;
}

const LIMITS = new WeakMap<Command, OutputLimit>();

/** Declares that `cmd` prints text: `-o`, `-q` and `--jq` given to it are exit 2, except what JSON text honours. */
export function printsText(cmd: Command, why: string, o: { json?: boolean; ownsQuiet?: boolean } = {}): Command {
  LIMITS.set(cmd, { why, refuses: 'formats', json: o.json, ownsQuiet: o.ownsQuiet });
  return cmd;
}

/** Declares that what `cmd` prints has no IDs (checks, settings): `-q` / `-o id` would print empty lines, so it is exit 2. */
export function printsNoIds(cmd: Command, why: string): Command {
  LIMITS.set(cmd, { why, refuses: 'ids' });
  return cmd;
}

/**
 * The output flag a text verb would ignore, as the error to give, or undefined. Only flags on the command line count:
 * a profile's `output` is a default for the commands that print objects, not a request to this one.
 */
export function textOutputConflict(cmd: Command): string | undefined {
  const t = LIMITS.get(cmd);
  if (!t) return undefined;
  const given = (key: string) => cmd.getOptionValueSourceWithGlobals(key) === 'cli';
  const output = String(cmd.optsWithGlobals().output);
  if (t.refuses === 'ids') {
    const flag = given('quiet') ? '-q' : given('output') && output === 'id' ? '-o id' : undefined;
    return flag && `${flag} does not apply to svc ${commandPath(cmd)}: ${t.why}`;
  }
  const jsonOutput = ['json', 'ndjson', 'jsonl'].includes(output);
  const flag =
    given('output') && !(t.json && jsonOutput)
      ? `-o ${output}`
      : given('quiet') && !t.ownsQuiet
        ? '-q'
        : !t.json && given('jq')
          ? '--jq'
          : given('headers')
            ? '--no-headers'
            : undefined;
  return flag && `${flag} does not apply to svc ${commandPath(cmd)}: ${t.why}`;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
