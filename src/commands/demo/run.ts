/** `svc demo`: the whole service on this machine — an emulator, an agent, a session that delegates and asks for a confirmation. */
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../runtime/context';
import { InterruptedError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { isExecutable } from '../../update/spawn';
import { svcCommand } from './launcher';
import { DEMO_MESSAGES, TRANSCRIPT_LIMIT_MS, TTY_STEP_MS } from './script';

/**
 * How the demo ends, on a terminal or not: what to try next, as lines a shell runs as printed (the demo's own emulator
 * and session are gone by then; the emulator's log goes to a file, off the terminal, as the README starts it). `svc` is written as this user
 * starts it: before `npm link` that is `node bin/svc.js`.
 */
export function tryIt(svc: string): string {
  return [
    'Try it yourself, in this shell:',
    `  ${svc} emulator --port 0 --exports-file emulator.env --log emulator.log &`,
    '  until [ -s emulator.env ]; do sleep 0.1; done; . ./emulator.env',
    `  ${svc} run --agent "$(${svc} agents create --name mine --model scripted-1 -q)" --message "Hello"`,
    '  kill %1',
  ].join('\n');
}
/** Leaving the demo's view stops its emulator, which runs in this process: the session goes with it. */
const LEFT_DEMO = 'left the demo: its emulator stops now, and the session with it';

export async function runDemo(ctx: Ctx): Promise<void> {
  const tty = Boolean(ctx.io.stdout.isTTY);
  const [{ startEmulator }, { agents }, { sessions }] = await Promise.all([
    import('../../emulator/server'),
    import('../../api/resources'),
    import('../../api/sessions'),
  ]);
  const say = (line: string) => write(ctx.io.stdout, line + '\n');
  const hint = tryIt(svcCommand({ script: process.argv[1], path: ctx.io.env.PATH, cwd: ctx.io.cwd, executable: isExecutable() }));
  const emu = await startEmulator({ port: 0, modelStepMs: tty ? TTY_STEP_MS : undefined });
  try {
    const client = await ctx.client(emu.apiKey, emu.url);
    const agent = await agents.create(
      client,
      {
        name: 'demo-coordinator',
        model: 'scripted-1',
        description: 'Delegates to two threads, then asks before running a tool.',
        roster: [{ name: 'worker' }],
      },
      randomUUID(),
    );
    const session = await sessions.create(client, { agent_id: agent.id, title: 'svc demo' }, randomUUID());
    const sid = String(session.id);
    await say(`svc demo: an emulator of the service runs at ${emu.url}; agent ${agent.id}, session ${sid}`);
    for (const text of DEMO_MESSAGES) {
      await say(`sending: ${text}`);
      await sessions.sendEvents(client, sid, { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] }, randomUUID());
    }
    if (tty) {
      await say('opening the live view: y allows the tool call when it is asked for, q leaves the demo');
      const { openLiveView } = await import('../../live/open');
      await openLiveView({ ctx, client, sessionId: sid, deltas: true, leaveNote: LEFT_DEMO });
      await say(hint);
      return;
    }
    const { printTranscript } = await import('./transcript');
    const limit = AbortSignal.timeout(TRANSCRIPT_LIMIT_MS);
    const signal = ctx.io.signal ? AbortSignal.any([ctx.io.signal, limit]) : limit;
    const end = await printTranscript({ client, sessionId: sid, turns: DEMO_MESSAGES.length, say, signal });
    if (ctx.io.signal?.aborted) throw new InterruptedError();
    if (limit.aborted) throw new Error(`the demo session did not finish within ${TRANSCRIPT_LIMIT_MS / 1000} s`);
    if (end === 'terminated' || end === 'archived') throw new Error(`the demo session was ${end}`);
    await say(`The session is idle. ${hint}`);
  } finally {
    await emu.close();
  }
}
