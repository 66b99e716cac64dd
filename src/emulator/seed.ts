import type { Emulator } from './server';
import { HttpError } from './errors';

const MAX_SEED = 2_000_000;

function count(v: unknown, name: string): number {
  if (v === undefined) return 0;
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > MAX_SEED)
    throw new HttpError(400, 'invalid_parameter_error', `${name} must be an integer 0..${MAX_SEED}`, `body.${name}`);
  return v as number;
}

/**
 * `POST /_emulator/seed {agents?: N, session_events?: N}`: bulk state for benchmarks (bench/run.mjs), created through
 * the same paths as the API so lists and streams see ordinary objects. Answers `{agent_ids: [first, last], session_id?}`.
 */
export function registerSeed(emu: Emulator): void {
  emu.admin.post('/_emulator/seed', (r) => {
    const body = (r.body ?? {}) as Record<string, unknown>;
    const agents = count(body.agents, 'agents');
    const events = count(body.session_events, 'session_events');
    const { agents: agentsService, sessions } = emu.services;
    if (!agentsService || !sessions) throw new HttpError(500, 'server_error', 'agents and sessions are not registered');
    const ids: string[] = [];
    for (let i = 0; i < agents; i++) ids.push(agentsService.create({ name: `seeded-${i}`, model: 'scripted-1' }).id);
    let sessionId: string | undefined;
    if (events > 0) {
      sessionId = sessions.create({ agent_id: agentsService.create({ name: 'seeded-session-agent', model: 'scripted-1' }).id }).id;
      sessions.seedEvents(sessionId, events);
    }
    return { status: 201, body: { agent_ids: ids.length ? [ids[0], ids[ids.length - 1]] : [], ...(sessionId ? { session_id: sessionId } : {}) } };
  });
}
