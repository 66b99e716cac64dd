import { spawn } from 'node:child_process';
import { configFile } from '../config/paths';
import { readConfig } from '../config/store';
import { UsageError } from '../runtime/errors';
import { foregroundExit, holdForeground } from '../runtime/foreground';
import type { Io } from '../runtime/io';
import { isExecutable } from '../update/spawn';
import { expandAlias } from './aliases';
import { findExtension } from './extensions';

/*
 * A first word that is no command: an alias, else an extension on PATH. Loaded only then, so a command's start-up
 * neither reads the config for aliases nor searches PATH.
 */

/** What the word at `at` of argv stands for: svc's own argv (an alias of svc words), an exit code (a program ran), or nothing. */
export async function runExternal(argv: string[], at: number, io: Io): Promise<{ argv: string[] } | { code: number } | undefined> {
  const name = argv[at];
  const before = argv.slice(0, at).filter((a) => a !== '--');
  const after = argv.slice(at + 1);
  const aliases = readConfig(configFile(io.env)).aliases ?? {};
  if (Object.hasOwn(aliases, name)) {
    const expanded = expandAlias(name, aliases[name], after);
    if ('argv' in expanded) return { argv: [...before, ...expanded.argv] };
    return { code: await runChild('/bin/sh', ['-c', expanded.shell, name, ...expanded.args], childEnv(before, name, io), io) };
  }
  const extension = findExtension(name, io.env);
  if (extension) return { code: await runChild(extension.path, after, childEnv(before, name, io), io) };
  return undefined;
}

/** How to run svc again from a child: the single executable itself, else node's script (bin/svc.js, executable). */
export function svcBin(): string {
  return isExecutable() ? process.execPath : process.argv[1];
}

/**
 * The child's environment: the user's own, with SVC_BIN and the global options given before the name as the variables
 * svc reads, so `$SVC_BIN …` in the child uses the same profile. The API key is never added (--api-key there is exit 2).
 */
function childEnv(before: string[], name: string, io: Io): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...io.env, SVC_BIN: svcBin() };
  for (let i = 0; i < before.length; i++) {
    const [flag, inline] = before[i].split(/=(.*)/s, 2);
    const value = () => inline ?? before[++i];
    if (flag === '--profile') env.SVC_PROFILE = value();
    else if (flag === '--base-url') env.SVC_BASE_URL = value();
    else if (flag === '--no-color') env.NO_COLOR = '1';
    else if (flag === '--debug') env.SVC_DEBUG = inline === 'api' ? 'api' : '1';
    else
      throw new UsageError(
        `${flag} does not apply before ${name}, which is not a svc command: give it after the name (--profile, --base-url, --debug and --no-color are passed on)`,
      );
  }
  return env;
}

/**
 * Runs the program with svc's streams, waits for it, and gives its exit code (128+N for a signal, as sh does). A signal
 * svc gets is forwarded to it and its end awaited (src/runtime/foreground.ts); after one the code is never 0.
 */
function runChild(file: string, args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  // Our own process's streams are handed over as they are (a terminal stays one); captured ones are piped.
  const own = io.stdout === process.stdout;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd: io.cwd, stdio: own ? 'inherit' : 'pipe' });
    const release = holdForeground(child, io.signal, own && (io.stdinIsTTY ?? Boolean(io.stdin.isTTY)));
    child.once('error', (e: NodeJS.ErrnoException) => {
      release();
      reject(new UsageError(`cannot run ${file}: ${e.code ?? e.message}`));
    });
    if (!own) {
      child.stdout!.on('data', (d: Buffer) => void io.stdout.write(d));
      child.stderr!.on('data', (d: Buffer) => void io.stderr.write(d));
      void pipeStdin(io, child.stdin!);
    }
    child.once('close', (code, signal) => {
      release();
      resolve(foregroundExit(code ?? 128 + signalNumber(signal), io.signal));
    });
  });
}

async function pipeStdin(io: Io, to: NodeJS.WritableStream): Promise<void> {
  to.on('error', () => {});
  try {
    for await (const chunk of io.stdin) to.write(chunk);
  } finally {
    to.end();
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  // os.constants holds the numbers; loaded here only, when a child was killed.
  const { constants } = process.getBuiltinModule('node:os') as typeof import('node:os');
  return (signal && constants.signals[signal]) || 1;
}
