import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { chompNewline as chomp, fileText, stdinText } from '../../input/read';
import { prompt } from '../../input/prompt';
import { flagTable, type FlagsOf } from '../../cli/flags';

/** Where a credential value may come from: standard input, a file, or a hidden prompt. Never argv. */
export const VALUE_FLAGS = flagTable({
  valueStdin: { flags: '--value-stdin', description: 'read the secret value from standard input' },
  valueFile: { flags: '--value-file <file>', description: 'read the secret value from a file' },
  value: { flags: '--value <value>', description: 'only "-" (standard input): a value typed on the command line would land in shell history and ps' },
});

/** Where the value comes from, as the flags say; `data` is `--data`, which may take standard input first. */
export interface ValueSource {
  fromStdin: boolean;
  file?: string;
  data?: string;
}

/**
 * The value's one source, checked before any request. A literal `--value SECRET` is refused without echoing it: a
 * secret in argv is visible in `ps` and shell history.
 */
export function parseValueSource(flags: FlagsOf<typeof VALUE_FLAGS> & { readonly data?: string }): ValueSource {
  if (flags.value !== undefined && flags.value !== '-') {
    throw new UsageError(
      'refusing to take a credential value from the command line (it would show in ps and shell history): use --value-stdin, --value - or --value-file',
    );
  }
  const fromStdin = Boolean(flags.valueStdin) || flags.value === '-';
  const file = flags.valueFile;
  const data = flags.data;
  const sources = [fromStdin, file !== undefined, data === '@-' && fromStdin].filter(Boolean).length;
  if (sources > 1)
    throw new UsageError('give the value one way: --value-stdin (or --value -), or --value-file; standard input can feed only one of --data @- and the value');
  return { fromStdin, file, data };
}

/** The value from its source, or undefined when none was given and no prompt is possible (or wanted). */
export async function readValue(ctx: Ctx, src: ValueSource, ask: boolean): Promise<string | undefined> {
  let value: string | undefined;
  if (src.fromStdin) value = chomp(await stdinText(ctx.io));
  else if (src.file !== undefined) value = chomp(await fileText(ctx.io, src.file));
  else if (ask && ctx.canPrompt) value = await prompt(ctx.io, 'Secret value (hidden): ', true);
  if (value === '') throw new UsageError('the credential value is empty');
  return value;
}

/** Inline `--data` is argv too: it may not carry the value (a file or stdin may). */
export function checkInlineData(data: string | undefined, body: Record<string, unknown>): void {
  if (body.value !== undefined && typeof data === 'string' && !data.startsWith('@')) {
    throw new UsageError(
      'refusing a credential value inside inline --data (it would show in ps and shell history): use --data @file, --value-stdin or --value-file',
    );
  }
}
