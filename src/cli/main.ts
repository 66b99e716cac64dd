import { CommanderError, type Command } from 'commander';
import { isatty } from 'node:tty';
import type { Ctx } from '../runtime/context';
import { write, type Io } from '../runtime/io';
import { makeKit, type Kit } from './action';
import { findGroup, isCommand } from './groups';
import { buildProgram, extensionsHelp, HELP_TOPICS, loadAllGroups, loadGroup, soleGroup, targetGroup, targetIndex } from './program';

// For the launcher (src/startup/launch.ts): whether a second signal waits for a child instead of exiting.
export { holdsExit } from '../runtime/foreground';

/** Runs svc with these arguments; returns the exit code. Never exits the process. */
export async function main(argv: string[], io: Io): Promise<number> {
  let ctx: Ctx | undefined;
  const kit = makeKit(io, (c) => (ctx = c), { build: buildProgram, load: loadGroup, loadAll: loadAllGroups, target: targetGroup, isCommand });
  const program = buildProgram(io, kit, soleGroup(argv));
  try {
    if (argv.length === 0) {
      await write(io.stdout, program.helpInformation() + extensionsHelp(io));
      return 0;
    }
    let target = targetGroup(argv);
    if (target !== undefined && !isCommand(target)) {
      // An alias or an extension: looked up only for a word that is no command, so commands start as fast as ever.
      const ran = await (await import('./external')).runExternal(argv, targetIndex(argv)!, io);
      if (ran && 'code' in ran) return ran.code;
      if (ran) {
        argv = ran.argv;
        target = targetGroup(argv);
      }
    }
    if (target === 'help') {
      const asked = helpRequest(argv);
      if (asked.topic === 'reference') return await printReference(io, program, kit, argv);
      if (asked.topic) return await printTopic(io, asked.topic);
      if (asked.unknown !== undefined) {
        const { UsageError } = await import('../runtime/errors');
        throw new UsageError(`unknown help topic or command "${asked.unknown}": the topics are ${HELP_TOPICS.join(', ')}; svc --help lists the commands`);
      }
      argv = asked.argv;
      target = targetGroup(argv);
    }
    // Only the bare `svc --version` prints the version: `agents get --version N` is a verb's own flag.
    const wantsHelp = argv.includes('--help') || argv.includes('-h');
    if ((target === 'version' && !wantsHelp) || (!target && (argv.includes('--version') || argv.includes('-V')))) {
      const flag = argv.find((a) => OUTPUT_FLAGS.has(a.replace(/=.*/, '')));
      if (flag)
        throw new (await import('../runtime/errors')).UsageError(`${flag.replace(/=.*/, '')} does not apply to svc --version: it prints the version alone`);
      const rest = target === 'version' ? argv.slice(targetIndex(argv)! + 1) : [];
      const extra = targetIndex(rest);
      if (extra !== undefined) throw new (await import('../runtime/errors')).UsageError(`svc version takes no arguments (got "${rest[extra]}")`);
      const { SVC_VERSION } = await import('../version');
      await write(io.stdout, SVC_VERSION + '\n');
      return 0;
    }
    if (target) await loadGroup(program, target, kit);
    await program.parseAsync(argv, { from: 'user' });
    await updateNotice(io, argv, target);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      return 2;
    }
    // Loaded on failure only: help and successful commands never need the error map.
    const errors = await import('../runtime/errors');
    // After a signal every failure is the interruption, unless the command already said what became of its work.
    const cut = io.signal?.aborted && !(err instanceof errors.UsageError) && !(err instanceof errors.InterruptedError);
    const e = cut ? new errors.InterruptedError() : err;
    // A failure said as JSON is the last line a program reads: no notice after it.
    if (!(await report(errors, e, io, ctx, argv))) await updateNotice(io, argv, targetGroup(argv));
    return errors.exitCodeFor(e);
  }
}

/** Commands after which no update notice is shown: the shell's completion and the check itself. */
const NO_NOTICE = new Set(['__complete', '__update-check', 'completion']);

/** After a command run by a person on a terminal, the update notice (src/update/notice.ts); loaded only there. */
async function updateNotice(io: Io, argv: string[], target: string | undefined): Promise<void> {
  if (!target || NO_NOTICE.has(target) || !io.stderr.isTTY || io.env.CI || io.env.SVC_NO_UPDATE_NOTIFIER === '1') return;
  // Standard input that is no terminal implies --no-input (`echo … | svc …`): no person is there to read it.
  if (!(io.stdinIsTTY ?? io.stdin?.isTTY)) return;
  const [{ afterCommand }, { SVC_VERSION }, { startDetachedCheck, isExecutable }] = await Promise.all([
    import('../update/notice'),
    import('../version'),
    import('../update/spawn'),
  ]);
  afterCommand(
    { env: io.env, stderrIsTTY: true, argv, current: SVC_VERSION, now: io.now?.() ?? Date.now(), executable: isExecutable() },
    (line) => void write(io.stderr, `${line}\n`),
    io.startUpdateCheck ?? startDetachedCheck,
  );
}

/** The flags that choose the output of data, which the version (text alone) cannot honour. */
const OUTPUT_FLAGS = new Set(['-o', '--output', '-q', '--quiet', '--jq']);

/**
 * `svc help GROUP [VERB]` is `svc GROUP [VERB] --help`, so both print the same; `svc help TOPIC` a topic. A word that
 * is neither is left to commander, which names the unknown command.
 */
function helpRequest(argv: string[]): { topic?: (typeof HELP_TOPICS)[number]; unknown?: string; argv: string[] } {
  const at = argv.indexOf('help');
  const words = argv.slice(at + 1);
  const topic = HELP_TOPICS.find((t) => t === words[0]);
  if (topic) return { topic, argv };
  if (words[0] !== undefined && !findGroup(words[0]) && words[0] !== 'version') return { unknown: words[0], argv };
  return { argv: [...argv.slice(0, at), ...words, '--help'] };
}

/** `svc help reference`: every command of the whole tree, so every group is loaded. */
async function printReference(io: Io, program: Command, kit: Kit, argv: string[]): Promise<number> {
  await loadAllGroups(program, kit);
  const [{ referenceOf, referenceText }, { pagerFor, showText }] = await Promise.all([import('./reference'), import('../output/pager')]);
  // The tree is not parsed here: --no-pager is read from the words.
  await showText(io.stdout, referenceText(referenceOf(program)), pagerFor(io, !argv.includes('--no-pager')));
  return 0;
}

/** The whole command tree with every group loaded, run by nothing (man pages, checks of the declarations). */
export async function wholeTree(): Promise<Command> {
  const io: Io = { stdin: undefined as never, stdinIsTTY: false, stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd() };
  const kit = makeKit(io, () => undefined, { build: buildProgram, load: loadGroup, loadAll: loadAllGroups, target: targetGroup, isCommand });
  const program = buildProgram(io, kit);
  await loadAllGroups(program, kit);
  return program;
}

/** The man pages of the whole tree (file name → roff), for the build (scripts/gen-man.mjs). */
export async function manPages(date: string): Promise<Record<string, string>> {
  const program = await wholeTree();
  const [{ referenceOf, manPages: pages }, { SVC_VERSION }] = await Promise.all([import('./reference'), import('../version')]);
  return pages(referenceOf(program), SVC_VERSION, date);
}

async function printTopic(io: Io, topic: Exclude<(typeof HELP_TOPICS)[number], 'reference'>): Promise<number> {
  const { TOPIC_TEXT } = await import('./help-topics');
  await write(io.stdout, TOPIC_TEXT[topic]);
  return 0;
}

/** Writes the failure's line (or JSON object); true when it was JSON. */
async function report(errors: typeof import('../runtime/errors'), err: unknown, io: Io, ctx: Ctx | undefined, argv: string[]): Promise<boolean> {
  const { exitCodeFor } = errors;
  if (err instanceof errors.ExitCodeError && err.silent) return false;
  const [{ addSecret, redact }, { escapeControls }, { errorJson, errorLine, jsonFailures, printable }, { recoveryHint }] = await Promise.all([
    import('../text/redact'),
    import('../output/controls'),
    import('../output/error-line'),
    import('../output/error-hints'),
  ]);
  for (const key of [io.env.SVC_API_KEY, io.env.SVC_ENVIRONMENT_KEY]) addSecret(key);
  let explicitJson = false;
  let debug = argv.some((a) => a.startsWith('--debug')) || io.env.SVC_DEBUG === '1' || io.env.SVC_DEBUG === 'api';
  try {
    const s = ctx?.settings;
    for (const key of [s?.apiKey?.value, s?.environmentKey?.value]) addSecret(key);
    explicitJson = jsonFailures(s?.output?.value);
    debug ||= Boolean(s?.debug);
  } catch {
    // the config itself is what failed; report without it
  }
  const tty = Boolean(io.stderr.isTTY);
  await write(io.stderr, (explicitJson ? errorJson(err) : errorLine(err)) + '\n');
  const hint = recoveryHint(err, { group: targetGroup(argv), settings: ctx?.settingsIfResolved });
  if (hint && tty && !explicitJson) await write(io.stderr, printable(`hint: ${hint}`) + '\n');
  if (debug && err instanceof Error && err.stack && exitCodeFor(err) === 1) await write(io.stderr, escapeControls(redact(err.stack)) + '\n');
  return explicitJson;
}

/** The process's own IO; the signal aborts on the first SIGINT/SIGTERM (bin/ handles the second). */
export function processIo(signal: AbortSignal): Io {
  return {
    // A getter: the first read of process.stdin builds its stream (for a file or /dev/null an fs.ReadStream, which
    // loads a dozen modules: ~3 ms), which most commands never read; whether it is a terminal needs no stream.
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal,
  };
}
