// A seed for fleets: a few dozen sessions across states over two agents and a self-hosted environment, made
// through the emulator's own HTTP API (as a user would), so `svc top`, the bulk verbs and their tests have
// something real to show.
import { API_VERSION, VERSION_HEADER } from '../wire/version';
import type { Emulator } from './server';

export interface FleetOptions {
  /** Sessions per state (default: 6 running, 5 waiting, 5 failed, 8 idle, 4 archived, 3 working: 31). */
  counts?: Partial<Record<FleetState, number>>;
  /** Milliseconds between a running session's deltas: it streams 50 words, so it runs about 50 times this (default 60 s). */
  runningStepMs?: number;
  /** How long to wait for every session to reach its state (default 20 s). */
  timeoutMs?: number;
}

/**
 * running: streaming a slow reply; waiting: idle on an always_ask tool confirmation; failed: idle after
 * `session.error`; idle: finished a turn; archived: archived after its turn; working: running a sandbox tool on the
 * self-hosted environment, its work row queued for a worker.
 */
export type FleetState = 'running' | 'waiting' | 'failed' | 'idle' | 'archived' | 'working';

export interface Fleet {
  agents: Array<{ id: string; name: string }>;
  environment: { id: string; key: string };
  sessions: Record<FleetState, string[]>;
}

const DEFAULT_COUNTS: Record<FleetState, number> = { running: 6, waiting: 5, failed: 5, idle: 8, archived: 4, working: 3 };

type Json = Record<string, any>;

/** Seeds `emu` (listening) with a fleet and resolves once every session is in its state. */
export async function seedFleet(emu: Emulator, o: FleetOptions = {}): Promise<Fleet> {
  const counts = { ...DEFAULT_COUNTS, ...o.counts };
  const api = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(emu.url + path, {
      method,
      headers: { authorization: `Bearer ${emu.apiKey}`, [VERSION_HEADER]: API_VERSION, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fleet seed: ${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };

  const agents = [];
  for (const [name, system] of [
    ['reviewer', 'Review code briefly.'],
    ['triager', 'Triage incoming issues.'],
  ])
    agents.push(await api('POST', '/v1/agents', { name, model: 'scripted-1', system, metadata: { fleet: 'demo' } }));
  const env = await api('POST', '/v1/environments', { name: `fleet-workers-${Date.now().toString(36)}`, config: { type: 'self_hosted' } });
  const { key } = await api('POST', `/_emulator/environments/${env.id}/keys`);

  const scripts: Record<FleetState, string> = {
    running: `/slow ${o.runningStepMs ?? 60_000}`,
    waiting: '/confirm bash {"command":"rm -rf build"}',
    failed: '/error internal_error',
    idle: 'Summarise the open pull requests.',
    archived: 'Close the stale issues.',
    working: '/tool bash {"command":"npm test"}',
  };
  const sessions = Object.fromEntries(Object.keys(DEFAULT_COUNTS).map((k) => [k, [] as string[]])) as Record<FleetState, string[]>;
  let n = 0;
  for (const state of Object.keys(DEFAULT_COUNTS) as FleetState[]) {
    for (let i = 0; i < counts[state]; i++, n++) {
      const agent = agents[n % agents.length];
      const s = await api('POST', '/v1/sessions', {
        agent_id: agent.id,
        title: `${state} ${i + 1}`,
        metadata: { fleet: 'demo', state, team: n % 2 ? 'platform' : 'product' },
        ...(state === 'working' ? { environment_id: env.id } : {}),
      });
      await api('POST', `/v1/sessions/${s.id}/events`, { events: [{ type: 'user.message', data: { content: [{ type: 'text', text: scripts[state] }] } }] });
      sessions[state].push(s.id);
    }
  }

  const reached: Record<FleetState, (s: Json) => boolean> = {
    running: (s) => s.status === 'running',
    waiting: (s) => s.requires_action === true,
    failed: (s) => s.status === 'idle' && s.stop_reason?.type === 'error',
    idle: (s) => s.status === 'idle' && s.stop_reason?.type === 'end_turn',
    archived: (s) => s.status === 'idle' && s.stop_reason?.type === 'end_turn',
    working: (s) => s.status === 'running',
  };
  const until = Date.now() + (o.timeoutMs ?? 20_000);
  for (const state of Object.keys(sessions) as FleetState[]) {
    for (const id of sessions[state]) {
      for (;;) {
        const s = await api('GET', `/v1/sessions/${id}`);
        if (reached[state](s)) break;
        if (Date.now() > until) throw new Error(`fleet seed: session ${id} did not reach ${state} (status ${s.status})`);
        await new Promise((r) => setTimeout(r, 10));
      }
      if (state === 'archived') await api('POST', `/v1/sessions/${id}/archive`);
    }
  }
  for (;;) {
    const rows = (await api('GET', `/v1/environments/${env.id}/work?page_size=1000`)).items as Json[];
    if (sessions.working.every((id) => rows.some((r) => r.session_id === id && r.status === 'queued'))) break;
    if (Date.now() > until) throw new Error('fleet seed: the working sessions have no queued work rows');
    await new Promise((r) => setTimeout(r, 10));
  }
  return { agents: agents.map((a) => ({ id: a.id, name: a.name })), environment: { id: env.id, key }, sessions };
}
