import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { write } from '../../io';
import { parseCount } from '../../config/settings';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addKeys } from './keys';

export async function runEmulator(ctx: Ctx, opts: Opts): Promise<void> {
  const { startEmulator } = await import('../../emulator/server');
  const { parseFaults } = await import('../../emulator/faults');
  let faults;
  try {
    faults = opts.faults ? parseFaults(opts.faults) : undefined;
  } catch (e) {
    throw new UsageError(`--faults: ${(e as Error).message}`);
  }
  const port = parseCount(opts.port ?? '4010', '--port', 0, 65535);
  const heartbeatMs = opts.heartbeatMs === undefined ? undefined : parseCount(opts.heartbeatMs, '--heartbeat-ms', 1);
  const log = (line: string) => void write(ctx.io.stderr, `emulator: ${line}\n`);
  let emu;
  try {
    emu = await startEmulator({
      port,
      host: opts.host ?? '127.0.0.1',
      apiKey: ctx.globals.apiKey,
      faults,
      statePath: opts.state,
      heartbeatMs,
      webhookUrl: opts.webhookUrl,
      log,
    });
  } catch (e) {
    throw new UsageError(`cannot listen on ${opts.host ?? '127.0.0.1'}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const exports = `export SVC_BASE_URL=${emu.url}\nexport SVC_API_KEY=${emu.apiKey}\n`;
  const exportsFile = opts.exportsFile === undefined ? undefined : resolvePath(ctx.io.cwd, opts.exportsFile);
  try {
    if (exportsFile) writeExports(exportsFile, exports);
  } catch (e) {
    await emu.close();
    throw new UsageError(`--exports-file: cannot write ${opts.exportsFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  await write(ctx.io.stdout, exports);
  log(`listening on ${emu.url}; Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    if (ctx.io.signal?.aborted) return resolve();
    ctx.io.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await emu.close();
  // A stale file would point the next shell at a closed port.
  if (exportsFile) rmSync(exportsFile, { force: true });
  log('stopped');
}

/**
 * The export lines for a backgrounded emulator (`eval "$(svc emulator &)"` would wait for its stdout forever): written
 * whole by a rename once it listens, so a shell that waits for the file never reads half of it; 0600, it holds the key.
 */
function writeExports(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

export default function build(cmd: Command, kit: Kit): void {
  cmd
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--faults <spec>', 'faults to inject, e.g. rate_limit_every=5,retry_after=1,fail_write_every=3,drop_stream_after=20')
    .option('--state <file>', 'keep state in this JSON snapshot (written atomically)')
    .option('--heartbeat-ms <ms>', 'interval of stream keep-alives (default 30000)')
    .option('--webhook-url <url>', 'also POST each webhook (e.g. trigger.paused) here as JSON; GET /_emulator/webhooks lists them')
    // Not --env-file: Node 20 takes that as its own option wherever it appears in argv.
    .option('--exports-file <file>', 'also write the two export lines to FILE once listening (removed on stop), for a shell to source');
  examples(cmd, [
    'svc emulator --port 0 --exports-file emulator.env & until [ -s emulator.env ]; do sleep 0.1; done; . ./emulator.env',
    'export SVC_ENVIRONMENT_KEY=$(svc emulator keys ENV_ID)',
    'svc emulator --api-key sk_local --state ./emu.json',
    'svc emulator --faults drop_stream_after=20',
  ]);
  cmd.action(kit.action((ctx, _a, opts) => runEmulator(ctx, opts)));
  addKeys(cmd, kit);
}
