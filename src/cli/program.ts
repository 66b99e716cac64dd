import { Command, Help, type Option } from 'commander';
import { addFlags, optionOf, type FlagSpec } from './flags';
import { write, type Io } from '../runtime/io';
import { GROUPS, SECTIONS, findGroup, isCommand, type GroupEntry, type Section } from './groups';
import { listExtensions } from './extensions';
import { escapeControls } from '../output/controls';
import { addGroupExamples, type Kit } from './action';

/** `svc help TOPIC`: texts in ./help-topics.ts, loaded only when one is asked for. */
export const HELP_TOPICS = ['environment', 'exit-codes', 'formatting', 'reference'] as const;

/** The global options: declared here once, for the program, its help and the search for the group in argv. */
const GLOBAL_OPTIONS: readonly FlagSpec[] = [
  { flags: '--profile <name>', description: 'config profile to use' },
  { flags: '--base-url <url>', description: 'service base URL' },
  { flags: '--api-key <key>', description: 'API key (prefer SVC_API_KEY or svc auth login)' },
  { flags: '-o, --output <format>', description: 'output format: table, wide, custom-columns=HEADER:.path,…, json, ndjson (jsonl), yaml, id' },
  { flags: '--no-headers', description: 'print a table without its header line (a table even when piped)' },
  { flags: '-q, --quiet', description: 'print only IDs (same as -o id)' },
  { flags: '--jq <expr>', description: 'filter JSON output with a jq expression' },
  { flags: '--debug', description: 'log requests and responses to stderr (secrets redacted); --debug=api: with headers and bodies' },
  // Its own option, not `--debug [mode]`: an optional value would take the next word, so `svc --debug agents list` would lose its group.
  { flags: '--debug=api', hidden: true, preset: 'api', attribute: 'debug' },
  { flags: '--no-color', description: 'disable colour' },
  { flags: '--no-pager', description: 'never page long output on a terminal (also SVC_PAGER=)' },
  { flags: '--request-timeout <seconds>', description: 'per-request timeout (also --timeout, where a command has no --timeout of its own)' },
  // Hidden: help lists each flag once, and `run` and `sessions wait` have a --timeout of their own.
  { flags: '--timeout <seconds>', hidden: true },
  { flags: '--max-retries <n>', description: 'retries for failed requests (default 3)' },
  { flags: '--no-input', description: 'never prompt' },
];

/** Global options that take a value, so the group name can be found in argv without parsing it. */
const VALUE_OPTIONS = new Set(
  GLOBAL_OPTIONS.map((g) => optionOf(g))
    .filter((o) => o.required || o.optional)
    .flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)),
);

/**
 * The command tree: the root program with its global options, and each group built when it is needed. With `only`
 * (soleGroup), that group's place alone: the places of the other groups cost ~5 ms of every command's start.
 * `groups` is the group table (`groupsOf` of a copy of the manifest, in a test).
 */
export function buildProgram(io: Io, _kit: Kit, only?: string, groups: readonly GroupEntry[] = GROUPS): Command {
  const program = new Command('svc').description('The operator CLI for the Hosted Agent Service');
  addFlags(program, GLOBAL_OPTIONS);
  program.showSuggestionAfterError(true).addHelpText(
    'after',
    // A function: PATH is searched for extensions only when the help is shown.
    () =>
      extensionsHelp(io) +
      '\nRun `svc COMMAND --help` (or `svc help COMMAND`) for a command, `svc --version` for the version.\n' +
      `Help topics: ${HELP_TOPICS.map((t) => `svc help ${t}`).join(', ')}.\n`,
  );
  configure(program, io);
  // Commander shows its help groups in the order their first command was added: section by section.
  for (const g of inHelpOrder(groups))
    if (only === undefined || g.name === only) program.command(g.name, { hidden: g.hidden }).description(g.description).helpGroup(heading(g.section));
  program.command('version').description('Print the version (same as svc --version)').helpGroup(heading('Local tools'));
  // The help command lands in the default group set before it is made.
  program.commandsGroup(heading('Local tools')).helpCommand('help [command]', 'Show help for a command or a topic');
  return program;
}

const heading = (section: Section): string => `${section}:`;

/** The groups by section, in SECTIONS' order (names stay in code-unit order within one: visibleCommands sorts them). */
function inHelpOrder<T extends { section: Section }>(groups: readonly T[]): T[] {
  return [...groups].sort((a, b) => SECTIONS.indexOf(a.section) - SECTIONS.indexOf(b.section));
}

/** The extensions on PATH as a section of `svc --help`, or nothing when there are none. */
export function extensionsHelp(io: Io): string {
  const found = listExtensions(io.env, isCommand);
  if (found.length === 0) return '';
  // A PATH folder's name is shown as `svc extension list` shows it: its controls escaped, never obeyed.
  const width = Math.max(...found.map((e) => e.name.length)) + 2;
  return `\nExtensions (svc-NAME on PATH, run as svc NAME; an alias of the same name wins):\n${found.map((e) => `  ${e.name.padEnd(width)}${escapeControls(e.path)}\n`).join('')}`;
}

/**
 * Subcommands in help, by name. Commander's own sorting (`sortSubcommands`) compares with localeCompare, whose
 * first use starts ICU's collator, a large share of `svc --help`'s start-up. Names are ASCII, so code point order is
 * the same order.
 */
function visibleCommands(this: Help, cmd: Command): Command[] {
  return Help.prototype.visibleCommands.call(this, cmd).sort((a, b) => (a.name() < b.name() ? -1 : a.name() > b.name() ? 1 : 0));
}

/** A global option a verb declares itself (its own `--timeout`) is listed once: the verb's. */
function visibleGlobalOptions(this: Help, cmd: Command): Option[] {
  const own = new Set(cmd.options.map((o) => o.long));
  return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !own.has(o.long));
}

/** Errors and help go through our streams; commander never exits the process. */
export function configure(cmd: Command, io: Io): Command {
  return cmd
    .exitOverride()
    .configureHelp({ visibleCommands, visibleGlobalOptions, showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => void write(io.stdout, s),
      writeErr: (s) => void write(io.stderr, s),
      outputError: (s, w) => w((s.startsWith('error:') ? s : `error: ${s}`).trimEnd() + '\n'),
    });
}

/** Replaces a group's placeholder with the real command tree. */
export async function loadGroup(program: Command, name: string, kit: Kit): Promise<Command | undefined> {
  const entry = findGroup(name);
  const cmd = program.commands.find((c) => c.name() === name);
  if (!entry || !cmd) return undefined;
  const { default: build } = await entry.load();
  build(cmd, kit);
  addGroupExamples(cmd);
  configureTree(cmd, kit.io);
  return cmd;
}

export async function loadAllGroups(program: Command, kit: Kit): Promise<void> {
  for (const g of GROUPS) await loadGroup(program, g.name, kit);
}

function configureTree(cmd: Command, io: Io): void {
  configure(cmd, io);
  for (const c of cmd.commands) configureTree(c, io);
}

/**
 * The group a command line runs, when nothing but that group needs a place in the tree: a group's name. Undefined for
 * a line that may show or search the whole tree: no group (`svc --help`), `help`, `version`, and a word that is no
 * command (an alias or an extension rewrites the line; an unknown word gets the nearest commands as suggestions).
 */
export function soleGroup(argv: string[]): string | undefined {
  const target = targetGroup(argv);
  return target !== undefined && findGroup(target) !== undefined ? target : undefined;
}

/** The first word of argv that is not an option or an option's value. */
export function targetGroup(argv: string[]): string | undefined {
  const at = targetIndex(argv);
  return at === undefined ? undefined : argv[at];
}

/** Where in argv the first word that is not an option or an option's value is. */
export function targetIndex(argv: string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return i;
  }
  return undefined;
}
