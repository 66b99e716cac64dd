import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { fileText, stdinText } from '../../input/read';
import { prompt } from '../../input/prompt';
import type { Opts } from '../../cli/action';

/** Where a credential value may come from: standard input, a file, or a hidden prompt. Never argv. */
export function addValueFlags(cmd: Command): Command {
  return cmd
    .option('--value-stdin', 'read the secret value from standard input')
    .option('--value-file <file>', 'read the secret value from a file')
    .option('--value <value>', 'only "-" (standard input): a value typed on the command line would land in shell history and ps');
}

/** One trailing newline is the shell's (`echo`, editors), not the secret's. */
const chomp = (s: string): string => s.replace(/\r?\n$/, '');

/**
 * The value from its one source, or undefined when none was given and no prompt is possible. A literal
 * `--value SECRET` is refused without echoing it: a secret in argv is visible in `ps` and shell history.
 */
export async function readValue(ctx: Ctx, opts: Opts, ask: boolean): Promise<string | undefined> {
  if (opts.value !== undefined && opts.value !== '-') {
    throw new UsageError(
      'refusing to take a credential value from the command line (it would show in ps and shell history): use --value-stdin, --value - or --value-file',
    );
  }
  const fromStdin = Boolean(opts.valueStdin) || opts.value === '-';
  const sources = [fromStdin, opts.valueFile !== undefined, opts.data === '@-' && fromStdin].filter(Boolean).length;
  if (sources > 1)
    throw new UsageError('give the value one way: --value-stdin (or --value -), or --value-file; standard input can feed only one of --data @- and the value');
  let value: string | undefined;
  if (fromStdin) value = chomp(await stdinText(ctx.io));
  else if (opts.valueFile !== undefined) value = chomp(await fileText(ctx.io, opts.valueFile));
  else if (ask && ctx.canPrompt) value = await prompt(ctx.io, 'Secret value (hidden): ', true);
  if (value === '') throw new UsageError('the credential value is empty');
  return value;
}

/** Inline `--data` is argv too: it may not carry the value (a file or stdin may). */
export function checkInlineData(opts: Opts, body: Record<string, unknown>): void {
  if (body.value !== undefined && typeof opts.data === 'string' && !opts.data.startsWith('@')) {
    throw new UsageError(
      'refusing a credential value inside inline --data (it would show in ps and shell history): use --data @file, --value-stdin or --value-file',
    );
  }
}
