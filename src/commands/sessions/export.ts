import type { Command } from 'commander';
import type { Session } from '../../wire/resources';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import type { TranscriptHeader } from '../../output/transcript-md';
import { transcriptTarget, writeFileAtomic } from '../../output/transcript-file';
import type { SessionEvent } from '../../wire/events';
import { LIMITS } from '../../wire/limits';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { pickSession } from './pick';
import { sessionStateText } from '../../session/state';

export const EXPORT_FORMATS = ['md', 'json', 'html'] as const;

/** `svc sessions export`'s flags. */
export const SESSION_EXPORT_FLAGS = flagTable({
  format: {
    flags: '--format <format>',
    description: 'md (Markdown), json (the events array) or html (one self-contained page)',
    choices: EXPORT_FORMATS,
    default: 'md',
  },
  outputFile: { flags: '-O, --output-file <file>', description: 'write to FILE (atomically: a temp file renamed over it); - or none for standard output' },
});

export function addExport(group: Command, kit: Kit): void {
  const cmd = group
    .command('export')
    .argument('<session>', 'session ID')
    .description('Write the whole history as a readable transcript, child threads nested under the delegation that started them');
  addFlags(pickSession(cmd), SESSION_EXPORT_FLAGS);
  examples(cmd, [
    'svc sessions export SESSION_ID > transcript.md',
    'svc sessions export SESSION_ID --format html -O transcript.html',
    'svc sessions export SESSION_ID --format json --jq "map(select(.type == \\"agent.message\\"))"',
  ]);
  cmd.action(kit.verb((args, flags) => parseExport(args, flags, cmd.getOptionValueSource('format') === 'cli'), runExport));
}

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `svc sessions export SESSION [--format md|json|html] [-O FILE]`. */
export interface ExportOptions {
  session: string;
  /** As given or defaulted; the output flags may still turn md into json (exportFormat, once settings are read). */
  format: ExportFormat;
  /** --format was written on the command line. */
  formatGiven: boolean;
  outputFile?: string;
}

export function parseExport([session]: string[], flags: FlagsOf<typeof SESSION_EXPORT_FLAGS>, formatGiven: boolean): ExportOptions {
  // Commander has checked --format against EXPORT_FORMATS and defaults it to md.
  const format = EXPORT_FORMATS.find((f) => f === flags.format) ?? 'md';
  return { session, format, formatGiven, outputFile: flags.outputFile };
}

/**
 * The transcript's form. `-o json` asks for the events array (`--format json`); any other `-o`, `-q`, or `--jq` on a
 * Markdown or HTML transcript or a file, would be ignored, so each is exit 2. A profile's `output` is not asked of it.
 */
export function exportFormat(ctx: Ctx, opts: { format: ExportFormat; outputFile?: string }, formatGiven: boolean): ExportFormat {
  const output = ctx.settings.output?.source === 'flag' ? ctx.settings.output.value : undefined;
  const asked = output === 'json' && !formatGiven ? 'json' : opts.format;
  if (output !== undefined && !(output === 'json' && asked === 'json'))
    throw new UsageError(
      `${output === 'id' ? '-q (-o id)' : `-o ${output}`} does not apply to svc sessions export: choose the transcript with --format md|json|html`,
    );
  if (ctx.settings.jq !== undefined && asked !== 'json') throw new UsageError('--jq filters JSON: use it with --format json');
  if (!ctx.settings.table.headers) throw new UsageError('--no-headers does not apply to svc sessions export: a transcript has no header line');
  if (ctx.settings.jq !== undefined && opts.outputFile !== undefined && opts.outputFile !== '-')
    throw new UsageError('--jq filters what is printed: it cannot be used with -O FILE');
  return asked;
}

export async function runExport(ctx: Ctx, o: ExportOptions): Promise<void> {
  const format = exportFormat(ctx, o, o.formatGiven);
  const sid = o.session;
  const file: string | undefined = o.outputFile === '-' ? undefined : o.outputFile;
  const target = file === undefined ? undefined : transcriptTarget(ctx.io.cwd, file);
  const c = await ctx.api();
  const session = await sessions.get(c, sid);
  const events: SessionEvent[] = [];
  for await (const e of sessions.history(c, sid, { order: 'asc' }, { all: true, pageSize: LIMITS.pageSizeMax })) events.push(e);
  const text = await render(format, session, events);
  if (target) {
    await writeFileAtomic(target, text);
    return ctx.msg(`wrote ${events.length} events of ${sid} to ${file}`);
  }
  if (format === 'json') return ctx.out.raw(text);
  await ctx.out.text(text);
}

async function render(format: ExportFormat, session: Session, events: SessionEvent[]): Promise<string> {
  if (format === 'json') return (await import('../../output/controls')).escapeJsonControls(JSON.stringify(events, null, 2)) + '\n';
  const { buildTranscript } = await import('../../output/transcript');
  const root = buildTranscript(events);
  const { TurnErrors } = await import('../../follow/outcome');
  const errors = new TurnErrors();
  for (const e of events) errors.see(e);
  const header = headerOf(session, events.length, errors.error?.type);
  if (format === 'html') return (await import('../../output/transcript-html')).renderHtml(header, root);
  return (await import('../../output/transcript-md')).renderMarkdown(header, root);
}

/** `errorType`: the last turn's `session.error`, which the state names (`failed (model_error)`). */
function headerOf(s: Session, count: number, errorType: string | undefined): TranscriptHeader {
  const str = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));
  const facts: Array<[string, string | undefined]> = [
    ['Session', str(s.id)],
    ['Agent', str(s.agent_id) && (s.agent_version !== undefined ? `${s.agent_id} (version ${s.agent_version})` : String(s.agent_id))],
    ['Environment', str(s.environment_id)],
    ['Status', str(s.status) && sessionStateText(s, { errorType })],
    ['Created', str(s.created_at)],
    ['Events', String(count)],
  ];
  return { title: str(s.title) ?? `Session ${s.id}`, facts: facts.filter((f): f is [string, string] => f[1] !== undefined) };
}
