import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { write } from '../../io';
import { examples, type Kit } from '../kit';

/** A scripted tour of real svc commands against an in-process emulator. */
export async function runDemo(ctx: Ctx): Promise<void> {
  const { startEmulator } = await import('../../emulator/server');
  const { main } = await import('../../cli');
  const emu = await startEmulator({ port: 0 });
  const env = { ...ctx.io.env, SVC_BASE_URL: emu.url, SVC_API_KEY: emu.apiKey, SVC_CONFIG_DIR: undefined, SVC_PROFILE: undefined };
  const io = { ...ctx.io, env };
  const say = (s: string) => write(ctx.io.stdout, s);
  try {
    await say(`svc demo: an emulator of the service is running at ${emu.url}\n\n`);
    const steps: string[][] = [
      ['agents', 'create', '--name', 'demo-reviewer', '--model', 'claude-sonnet-4-5', '--system', 'Review code briefly.', '-o', 'id'],
    ];
    let agentId = '';
    const run = async (args: string[], capture = false): Promise<string> => {
      await say(`$ svc ${args.map(shellQuote).join(' ')}\n`);
      let captured = '';
      const stdout = capture ? { ...ctx.io.stdout, isTTY: false, write: (c: string | Uint8Array) => ((captured += String(c)), true), once: ctx.io.stdout.once.bind(ctx.io.stdout) } : ctx.io.stdout;
      const code = await main(args, { ...io, stdout });
      if (capture) await say(captured);
      if (code !== 0) throw new Error(`demo step failed with exit ${code}: svc ${args.map(shellQuote).join(' ')}`);
      await say('\n');
      return captured.trim();
    };
    agentId = await run(steps[0], true);
    await run(['agents', 'list']);
    await run(['agents', 'update', agentId, '--system', 'Review code thoroughly.']);
    await run(['agents', 'versions', agentId]);
    await run(['agents', 'get', agentId, '--version', '1', '-o', 'json', '--jq', '.system']);
    await say('Try it yourself: `svc emulator` in one shell, then `eval` its two export lines in another.\n');
  } finally {
    await emu.close();
  }
}

/** Quotes a word for display so a reader can paste the command back. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc demo']);
  cmd.action(kit.action((ctx) => runDemo(ctx)));
}
