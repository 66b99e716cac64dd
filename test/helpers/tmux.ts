import { execFile as execFileCb, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { Emulator } from '../../src/emulator/server';
import { tempConfigDir } from './cli';
import { waitUntil } from './sse';

const execFile = promisify(execFileCb);

export interface TmuxStart {
  /** The emulator svc in the pane talks to. */
  emu: Emulator;
  width: number;
  height: number;
  /** Sets CI=true in the pane's shell (svc then never prompts, and Ink draws only its last frame unless the view is live). */
  ci?: boolean;
}

/**
 * One tmux session named `session` on a private socket (named after `work`), with no configuration,
 * running a bare bash whose prompt is `PROMPT$ `, for end-to-end tests of svc in a real terminal.
 */
export function tmuxTerminal(work: string, session: string) {
  const socket = `svc-${basename(work)}`;
  /** An empty configuration: tmux reads neither the user's nor the system's. */
  const noConfig = join(work, 'tmux.conf');
  let server: ChildProcess | undefined;

  /** tmux on the private socket, with no configuration. */
  const tmux = async (...args: string[]): Promise<string> => (await execFile('tmux', ['-L', socket, '-f', noConfig, ...args], { encoding: 'utf8' })).stdout;
  const pane = () => tmux('capture-pane', '-p', '-J', '-t', session);
  const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);
  /** Waits until the pane shows `what`, and returns the pane's text; prints the pane when it never does. */
  // Generous: on a loaded 2-core CI machine the whole suite runs beside this terminal.
  const paneShows = (what: string | RegExp, timeoutMs = 20_000) =>
    waitUntil(
      async () => {
        const text = await pane();
        return (typeof what === 'string' ? text.includes(what) : what.test(text)) ? text : undefined;
      },
      `the pane to show ${what}`,
      timeoutMs,
    ).catch(async (e) => {
      console.error('PANE:\n' + (await pane()));
      throw e;
    });

  /** Starts the server and the session (`work` must exist), and waits for the shell's prompt. */
  async function start({ emu, width, height, ci = false }: TmuxStart): Promise<void> {
    writeFileSync(noConfig, '');
    // A foreground server (-D): it needs no daemon(), and it is ours to stop.
    server = spawn('tmux', ['-L', socket, '-f', noConfig, '-D'], { stdio: 'ignore' });
    const home = tempConfigDir();
    const env = [
      ...(ci ? ['CI=true'] : []),
      `HOME=${home}`,
      `PATH=${process.env.PATH}`,
      'TERM=xterm-256color',
      `SVC_BASE_URL=${emu.url}`,
      `SVC_API_KEY=${emu.apiKey}`,
      `SVC_CONFIG_DIR=${home}`,
      'PS1=PROMPT$ ',
    ];
    await waitUntil(
      () =>
        tmux('new-session', '-d', '-s', session, '-x', String(width), '-y', String(height), 'env', '-i', ...env, 'bash', '--norc', '--noprofile').then(
          () => true,
          () => false,
        ),
      'the tmux server',
    );
    await paneShows('PROMPT$');
  }

  /** Stops the session and the server. */
  async function stop(): Promise<void> {
    await tmux('kill-server').catch(() => undefined);
    server?.kill();
  }

  return { tmux, pane, keys, paneShows, start, stop };
}
