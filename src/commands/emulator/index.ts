import { createWriteStream, openSync, rmSync, type WriteStream } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { atomicWriteSync } from '../../fs/atomic-write';
import { write } from '../../runtime/io';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { printsText } from '../../cli/text-output';
import { addKeys } from './keys';
import { addOutage } from './outage';
import { EMULATOR_FLAGS, parseEmulator, type EmulatorCommandOptions } from './parse';

export async function runEmulator(ctx: Ctx, o: EmulatorCommandOptions): Promise<void> {
  const { startEmulator } = await import('../../emulator/server');
  const { port, host, quiet } = o;
  const logFile = o.log === undefined ? undefined : openLog(resolvePath(ctx.io.cwd, o.log), o.log);
  const say = (line: string) => {
    void write(ctx.io.stderr, `emulator: ${line}\n`);
    logFile?.write(`${new Date().toISOString()} ${line}\n`);
  };
  // The request log goes to the file, nowhere (--quiet), or stderr; start and stop are always said on stderr.
  const log = logFile ? (line: string) => void logFile.write(`${new Date().toISOString()} ${line}\n`) : quiet ? () => {} : say;
  let emu;
  try {
    emu = await startEmulator({
      port,
      host,
      apiKey: ctx.globals.apiKey,
      faults: o.faults,
      statePath: o.statePath === undefined ? undefined : resolvePath(ctx.io.cwd, o.statePath),
      heartbeatMs: o.heartbeatMs,
      webhookUrl: o.webhookUrl,
      log,
    });
  } catch (e) {
    await closeLog(logFile);
    throw new UsageError(`cannot listen on ${host}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const exports = `export SVC_BASE_URL=${emu.url}\nexport SVC_API_KEY=${emu.apiKey}\n`;
  const exportsFile = o.exportsFile === undefined ? undefined : resolvePath(ctx.io.cwd, o.exportsFile);
  try {
    // For a backgrounded emulator (`eval "$(svc emulator &)"` would wait for its stdout forever): written whole once it
    // listens, so a shell that waits for the file never reads half of it; private, it holds the key.
    if (exportsFile) atomicWriteSync(exportsFile, exports);
  } catch (e) {
    await emu.close();
    await closeLog(logFile);
    throw new UsageError(`--exports-file: cannot write ${o.exportsFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  await write(ctx.io.stdout, exports);
  // Started with & the terminal's Ctrl-C does not reach it: name the job control way too.
  say(`listening on ${emu.url} (pid ${process.pid}); Ctrl-C stops it, or kill %1 (the job number \`jobs\` shows) when started with &`);
  await new Promise<void>((resolve) => {
    if (ctx.io.signal?.aborted) return resolve();
    ctx.io.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await emu.close();
  // A stale file would point the next shell at a closed port.
  if (exportsFile) rmSync(exportsFile, { force: true });
  say('stopped');
  await closeLog(logFile);
}

/** The request log file, opened now (append, 0600) so a bad path is a usage error before anything listens. */
function openLog(file: string, given: string): WriteStream {
  let fd: number;
  try {
    fd = openSync(file, 'a', 0o600);
  } catch (e) {
    throw new UsageError(`--log: cannot write ${given}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const out = createWriteStream('', { fd });
  // A log that fails later (a full disk) must not end the emulator.
  out.on('error', () => {});
  return out;
}

async function closeLog(out: WriteStream | undefined): Promise<void> {
  if (out) await new Promise<void>((resolve) => out.end(resolve));
}

export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd, EMULATOR_FLAGS);
  // As the README's "Try it against the emulator" says it, the one place the global --api-key means the key served.
  cmd.addHelpText(
    'after',
    [
      '',
      'It prints two export lines first (its URL and the API key it accepts): --api-key KEY fixes that key, else a',
      'fresh one is made. Its request log goes to standard error, to --log FILE, or nowhere with --quiet; start and',
      'stop are always said on standard error.',
    ].join('\n'),
  );
  examples(cmd, [
    'svc emulator --port 0 --exports-file emulator.env --log emulator.log & until [ -s emulator.env ]; do sleep 0.1; done; . ./emulator.env',
    'export SVC_ENVIRONMENT_KEY=$(svc emulator keys ENV_ID)',
    'svc emulator --api-key sk_local --state ./emu.json',
    'svc emulator --faults drop_stream_after=20',
    'svc emulator outage --sessions 50 --error-type engine_overloaded',
  ]);
  printsText(cmd, 'it prints the two export lines, then serves', { ownsQuiet: true });
  cmd.action(kit.verb((args, flags) => parseEmulator(args, flags, Boolean(cmd.optsWithGlobals().quiet)), runEmulator));
  addKeys(cmd, kit);
  addOutage(cmd, kit);
}
