import { Command, Help, Option } from 'commander';
import { write, type Io } from '../io';
import { GROUPS, findGroup } from './groups';
import { addGroupExamples, type Kit } from './action';

/** The command tree: the root program with its global options, and each group built when it is needed. */
/** Global options that take a value, so the group name can be found in argv without parsing it. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--api-key', '-o', '--output', '--jq', '--timeout', '--max-retries']);

export function buildProgram(io: Io, _kit: Kit): Command {
  const program = new Command('svc')
    .description('The operator CLI for the Hosted Agent Service')
    .addOption(new Option('--profile <name>', 'config profile to use'))
    .addOption(new Option('--base-url <url>', 'service base URL'))
    .addOption(new Option('--api-key <key>', 'API key (prefer SVC_API_KEY or svc auth login)'))
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson (jsonl), yaml, id'))
    .addOption(new Option('-q, --quiet', 'print only IDs (same as -o id)'))
    .addOption(new Option('--jq <expr>', 'filter JSON output with a jq expression'))
    .addOption(new Option('--debug', 'log requests and responses to stderr (secrets redacted); --debug=api: with headers and bodies'))
    .addOption(debugApiOption())
    .addOption(new Option('--no-color', 'disable colour'))
    .addOption(new Option('--timeout <seconds>', 'per-request timeout'))
    .addOption(new Option('--max-retries <n>', 'retries for failed requests (default 3)'))
    .addOption(new Option('--no-input', 'never prompt'))
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nRun `svc --version` for the version, `svc COMMAND --help` for a command.\n');
  configure(program, io);
  for (const g of GROUPS) program.command(g.name, { hidden: g.hidden }).description(g.description);
  return program;
}

/**
 * `--debug=api` sets `debug` to "api". Its own option, not `--debug [mode]`: an optional value would take the next
 * word, so `svc --debug agents list` would lose its group.
 */
function debugApiOption(): Option {
  const option = new Option('--debug=api').hideHelp().preset('api');
  option.attributeName = () => 'debug';
  return option;
}

/**
 * Subcommands in help, by name. Commander's own sorting (`sortSubcommands`) compares with localeCompare, whose
 * first use starts ICU's collator (~7 ms of a 45 ms CPU profile of `svc --help`). Names are ASCII, so code
 * point order is the same order.
 */
function visibleCommands(this: Help, cmd: Command): Command[] {
  return Help.prototype.visibleCommands.call(this, cmd).sort((a, b) => (a.name() < b.name() ? -1 : a.name() > b.name() ? 1 : 0));
}

/** Errors and help go through our streams; commander never exits the process. */
export function configure(cmd: Command, io: Io): Command {
  return cmd
    .exitOverride()
    .configureHelp({ visibleCommands, showGlobalOptions: true })
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

/** The first word of argv that is not an option or an option's value. */
export function targetGroup(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}
