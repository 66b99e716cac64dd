import { Command, CommanderError, Help, Option } from 'commander';
import type { Ctx } from './context';
import { write, type Io } from './io';
import { GROUPS, findGroup } from './commands/registry';
import { addGroupExamples, makeKit, type Kit } from './commands/kit';

/** Global options that take a value, so the group name can be found in argv without parsing it. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--api-key', '-o', '--output', '--jq', '--timeout', '--max-retries']);

export function buildProgram(io: Io, kit: Kit): Command {
  const program = new Command('svc')
    .description('The operator CLI for the Hosted Agent Service')
    .addOption(new Option('--profile <name>', 'config profile to use'))
    .addOption(new Option('--base-url <url>', 'service base URL'))
    .addOption(new Option('--api-key <key>', 'API key (prefer SVC_API_KEY or svc auth login)'))
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson (jsonl), yaml, id'))
    .addOption(new Option('-q, --quiet', 'print only IDs (same as -o id)'))
    .addOption(new Option('--jq <expr>', 'filter JSON output with a jq expression'))
    .addOption(new Option('--debug', 'log requests and responses to stderr (secrets redacted)'))
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
 * Subcommands in help, by name. Commander's own sorting (`sortSubcommands`) compares with localeCompare, whose
 * first use starts ICU's collator (~7 ms of a 45 ms CPU profile of `svc --help`). Names are ASCII, so code
 * point order is the same order.
 */
function visibleCommands(this: Help, cmd: Command): Command[] {
  return Help.prototype.visibleCommands.call(this, cmd).sort((a, b) => (a.name() < b.name() ? -1 : a.name() > b.name() ? 1 : 0));
}

/** Errors and help go through our streams; commander never exits the process. */
export function configure(cmd: Command, io: Io): Command {
  return cmd.exitOverride().configureHelp({ visibleCommands, showGlobalOptions: true }).configureOutput({
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

/** Runs svc with these arguments; returns the exit code. Never exits the process. */
export async function main(argv: string[], io: Io): Promise<number> {
  let ctx: Ctx | undefined;
  const kit = makeKit(io, (c) => (ctx = c));
  const program = buildProgram(io, kit);
  try {
    if (argv.length === 0) {
      await write(io.stdout, program.helpInformation());
      return 0;
    }
    const target = targetGroup(argv);
    // Only the bare `svc --version` prints the version: `agents get --version N` is a verb's own flag.
    if (!target && (argv.includes('--version') || argv.includes('-V'))) {
      const { SVC_VERSION } = await import('./version');
      await write(io.stdout, SVC_VERSION + '\n');
      return 0;
    }
    if (target) await loadGroup(program, target, kit);
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      return 2;
    }
    // Loaded on failure only: help and successful commands never need the error map.
    const errors = await import('./errors');
    const e = io.signal?.aborted && !(err instanceof Error && err.name === 'UsageError') ? new errors.InterruptedError() : err;
    await report(errors, e, io, ctx, argv);
    return errors.exitCodeFor(e);
  }
}

async function report(errors: typeof import('./errors'), err: unknown, io: Io, ctx: Ctx | undefined, argv: string[]): Promise<void> {
  const { errorJson, errorLine, exitCodeFor, recoveryHint } = errors;
  let explicitJson = false;
  let debug = argv.includes('--debug') || io.env.SVC_DEBUG === '1';
  try {
    const s = ctx?.settings;
    explicitJson = s?.output?.value === 'json' || s?.output?.value === 'ndjson';
    debug ||= Boolean(s?.debug);
  } catch {
    // the config itself is what failed; report without it
  }
  await write(io.stderr, (explicitJson ? errorJson(err) : errorLine(err)) + '\n');
  const hint = recoveryHint(err);
  if (hint && io.stderr.isTTY && !explicitJson) await write(io.stderr, `hint: ${hint}\n`);
  if (debug && err instanceof Error && err.stack && exitCodeFor(err) === 1) await write(io.stderr, err.stack + '\n');
}

/** The process's own IO; the signal aborts on the first SIGINT/SIGTERM (bin/ handles the second). */
export function processIo(signal: AbortSignal): Io {
  return {
    // A getter: the first read of process.stdin builds its stream (~1 ms), which most commands never read.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal,
  };
}
