/**
 * The launcher, one module for the package (bin/svc.js) and the single executable (src/sea/entry.ts): the only code
 * that exits the process. It wires the signals and the broken-pipe stop before anything else runs, answers the bare
 * `svc --version` before the command tree loads, runs the command, and exits once stdout and stderr have drained.
 */
import type { Io } from '../runtime/io';
import { SVC_VERSION } from '../version';

/** What the launcher runs: src/cli/main.ts's exports. */
export interface CommandTree {
  main(argv: string[], io: Io): Promise<number>;
  processIo(signal: AbortSignal): Io;
  /** Whether a child in svc's place (an extension, a `!` alias, the pager) holds the exit for a second signal. */
  holdsExit(signal: NodeJS.Signals): boolean;
}

export interface Launch {
  /** The command tree, loaded after the signals are wired (the package prepares its code cache first). */
  tree(): CommandTree;
  /** The exit code for an error the launcher's caller knows (a checkout never built), else undefined: it is thrown. */
  failed?(err: unknown): number | undefined;
}

export function launch(l: Launch, argv: string[] = process.argv.slice(2)): void {
  const controller = new AbortController();
  /** Until the command tree is loaded, no child runs. */
  let holdsExit: CommandTree['holdsExit'] = () => false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      // A child in svc's place gets a second signal too, and svc waits for its end.
      if (holdsExit(signal)) return;
      process.exit(130);
    }
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that stops early (`svc … | head`) closes the pipe: stop quietly, as shell tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 1));
  }
  const run = async (): Promise<number> => {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      // The bare `svc --version` answers before the command tree (commander and the groups) loads.
      process.stdout.write(`${SVC_VERSION}\n`);
      return 0;
    }
    const tree = l.tree();
    holdsExit = tree.holdsExit;
    return tree.main(argv, tree.processIo(controller.signal));
  };
  void run()
    .catch((err: unknown) => {
      const code = l.failed?.(err);
      if (code === undefined) throw err;
      return code;
    })
    .then((code) => {
      // Let stdout and stderr drain before exiting, so piped output is never cut short.
      let pending = 2;
      const finish = () => --pending === 0 && process.exit(code);
      process.stdout.write('', finish);
      process.stderr.write('', finish);
    });
}
