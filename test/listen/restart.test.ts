import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackStreams } from '../api/stream/helpers';
import { useBundledSvc, spawnSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { agentSession, history, send, waitIdleEvents, waitUntil } from '../helpers/sse';
import { acceptedEvents } from './helpers';
import { useReceiver } from './receiver';

const t = useEmulator({ modelStepMs: 1 });
const built = useBundledSvc();
const receiver = useReceiver();
let streamsOpen: ReturnType<typeof trackStreams>;
beforeAll(() => {
  streamsOpen = trackStreams(t.emu);
});

const settledIn = (file: string, sid: string): string | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).sessions[sid]?.event_id;
  } catch {
    return undefined;
  }
};

describe('svc listen --state across kill -9', () => {
  it('a listener killed with SIGKILL in the middle of a backlog, restarted with the same --state, re-sends nothing the receiver accepted and loses nothing', async () => {
    const config = tempConfigDir();
    const file = join(config, 'state.json');
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: config };
    const sid = (await agentSession(t.emu, {})).id as string;
    // The receiver refuses the first turn's reply for now: it and everything after it wait in the listener.
    let down = true;
    receiver.respond = (r) => (down && r.json?.event?.type === 'agent.message' ? { status: 503 } : { status: 200 });
    const args = ['listen', sid, '--forward-to', receiver.url, '--state', file];
    const first = spawnSvc(built.bin, args, env);
    await waitUntil(() => streamsOpen(sid), 'the first listener to open its stream', 15_000);
    await send(t.emu, sid, '/echo before the kill');
    const events = await waitIdleEvents(t.emu, sid, 1);
    const reply = events.findIndex((e) => e.type === 'agent.message');
    await waitUntil(() => receiver.requests.filter((r) => r.json?.event?.type === 'agent.message').length >= 2, 'the reply to be retried', 15_000);
    // Settled up to the event before the refused reply, and no further.
    await waitUntil(() => settledIn(file, sid) === events[reply - 1].id, 'the state to reach the event before the reply');
    first.child.kill('SIGKILL');
    const killed = await first.exit;
    expect(killed.signal).toBe('SIGKILL');

    await send(t.emu, sid, '/echo while nobody listened');
    await waitIdleEvents(t.emu, sid, 2);
    down = false;
    const before = receiver.requests.length;
    const second = spawnSvc(built.bin, args, env);
    const all = (await history(t.emu, `/v1/sessions/${sid}`)).map((e) => e.id);
    await waitUntil(() => settledIn(file, sid) === all.at(-1), 'the restarted listener to settle everything', 15_000);
    second.child.kill('SIGINT');
    const stopped = await second.exit;
    expect(stopped.code).toBe(130);

    const resent = receiver.requests.slice(before).map((r) => r.json.event.id);
    // The restart starts at the refused reply: nothing the receiver had accepted comes again.
    expect(resent).toEqual(all.slice(reply));
    expect(acceptedEvents(receiver, sid).map((e) => e.id)).toEqual(all);
    const replyIds = new Set(receiver.requests.filter((r) => r.json.event.id === all[reply]).map((r) => r.headers['svc-delivery-id']));
    expect(replyIds.size).toBe(1);
    expect(readdirSync(dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});

describe('svc listen stopped by a service manager', () => {
  it('SIGTERM is a clean stop: deliveries settled, --state saved, the summary printed, exit 0 (Ctrl-C stays 130)', async () => {
    const config = tempConfigDir();
    const file = join(config, 'state.json');
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: config };
    receiver.respond = () => ({ status: 200 });
    const sid = (await agentSession(t.emu, {})).id as string;
    const l = spawnSvc(built.bin, ['listen', sid, '--forward-to', receiver.url, '--state', file], env);
    await waitUntil(() => streamsOpen(sid), 'the stream to open', 15_000);
    await send(t.emu, sid, '/echo then a stop');
    await waitIdleEvents(t.emu, sid, 1);
    const all = (await history(t.emu, `/v1/sessions/${sid}`)).map((e) => e.id);
    await waitUntil(() => settledIn(file, sid) === all.at(-1), 'everything settled', 15_000);
    l.child.kill('SIGTERM');
    const r = await l.exit;
    expect([r.code, r.signal]).toEqual([0, null]);
    expect(r.stderr).toMatch(/delivered \d+, dropped 0\n$/);
    expect(r.stderr).not.toMatch(/^error:/m);
  }, 30_000);
});

describe('svc listen: one listener per --state', () => {
  it("a second listener on the same --state is exit 2 naming the first one's PID, and leaves the file to it", async () => {
    const config = tempConfigDir();
    const file = join(config, 'state.json');
    const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: config };
    const sid = (await agentSession(t.emu, {})).id as string;
    const first = spawnSvc(built.bin, ['listen', sid, '--exec', 'true', '--state', file], env);
    await waitUntil(() => streamsOpen(sid), 'the first listener to open its stream', 15_000);
    const second = await spawnSvc(built.bin, ['listen', sid, '--exec', 'true', '--state', file], env).exit;
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `error: --state ${file} is in use by PID ${first.child.pid} (another svc listen); stop it, or give each listener its own --state\n`,
    );
    first.child.kill('SIGTERM');
    expect((await first.exit).code).toBe(0);
    expect(readdirSync(config)).toEqual(['state.json']);
  }, 30_000);
});
