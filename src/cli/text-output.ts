import type { Command } from 'commander';

/** A verb that prints text (a file's bytes, a script, a key) rather than the service's objects. */
interface TextOutput {
  why: string;
  /** It prints JSON as received (svc api): --jq filters it, and `-o json|ndjson` asks for errors as JSON too. */
  json?: boolean;
}

const TEXT = new WeakMap<Command, TextOutput>();

/** Declares that `cmd` prints text: `-o`, `-q` and `--jq` given to it are exit 2, except what JSON text honours. */
export function printsText(cmd: Command, why: string, o: { json?: boolean } = {}): Command {
  TEXT.set(cmd, { why, json: o.json });
  return cmd;
}

/**
 * The output flag a text verb would ignore, as the error to give, or undefined. Only flags on the command line count:
 * a profile's `output` is a default for the commands that print objects, not a request to this one.
 */
export function textOutputConflict(cmd: Command): string | undefined {
  const t = TEXT.get(cmd);
  if (!t) return undefined;
  const given = (key: string) => cmd.getOptionValueSourceWithGlobals(key) === 'cli';
  const output = String(cmd.optsWithGlobals().output);
  const jsonOutput = ['json', 'ndjson', 'jsonl'].includes(output);
  const flag = given('output') && !(t.json && jsonOutput) ? `-o ${output}` : given('quiet') ? '-q' : !t.json && given('jq') ? '--jq' : undefined;
  return flag && `${flag} does not apply to svc ${commandPath(cmd)}: ${t.why}`;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
