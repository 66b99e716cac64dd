// An outage to rehearse (docs/behaviour.md "The emulator", fifth round): a batch of sessions fails with a spec `error_type` during a model
// outage that then ends, so `svc sessions explain` groups them and `svc sessions rerun` brings them back.
import { SESSION_ERROR_TYPES } from '../wire/errors';
import { HttpError } from './errors';
import type { Emulator } from './server';

export interface OutageOptions {
  /** How many sessions fail (default 50). */
  sessions?: number;
  /** The `error_type` they fail with (default `engine_overloaded`). */
  error_type?: string;
  /** Messages each session was sent before it failed, one turn each (default 1). */
  turns?: number;
  /** How long to wait for every session to fail (default 20 s). */
  timeout_ms?: number;
}

export interface Outage {
  agent_id: string;
  error_type: string;
  session_ids: string[];
}

const MAX_SESSIONS = 1000;

/**
 * Creates an agent and `sessions` sessions (metadata `scenario=outage`), switches the `model_outage` fault on, sends
 * each its messages (each turn fails), waits until every one has failed, then ends the outage (the other faults stay).
 */
export async function runOutage(emu: Emulator, o: OutageOptions = {}): Promise<Outage> {
  const n = o.sessions ?? 50;
  const errorType = o.error_type ?? 'engine_overloaded';
  const turns = o.turns ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SESSIONS)
    throw new HttpError(400, 'invalid_parameter_error', `sessions must be 1 to ${MAX_SESSIONS}`, 'body.sessions');
  if (!Number.isInteger(turns) || turns < 1 || turns > 10) throw new HttpError(400, 'invalid_parameter_error', 'turns must be 1 to 10', 'body.turns');
  const { agents, sessions } = emu.services;
  if (!agents || !sessions) throw new HttpError(500, 'server_error', 'agents and sessions are not registered');
  // Made through the services behind the API (as triggers and the seed are), so a thousand take a moment.
  const agent = agents.create({
    name: `ticket-bot-${Date.now().toString(36)}`,
    model: 'scripted-1',
    system: 'Summarise tickets.',
    metadata: { scenario: 'outage' },
  });
  const before = emu.faults.config.model_outage;
  emu.faults.config.model_outage = errorType;
  const ids: string[] = [];
  try {
    for (let i = 1; i <= n; i++)
      ids.push(sessions.create({ agent_id: agent.id, title: `ticket ${i}`, metadata: { scenario: 'outage', ticket: String(i) } }).id);
    for (let t = 1; t <= turns; t++) {
      for (const [i, id] of ids.entries())
        sessions.send(id, 'next_turn', [
          { type: 'user.message', data: { content: [{ type: 'text', text: `Summarise ticket ${i + 1}${t > 1 ? ` (part ${t})` : ''}` }] } },
        ]);
      const until = Date.now() + (o.timeout_ms ?? 20_000);
      for (const id of ids)
        while (!(sessions.failedIdle(id) && !sessions.isBusy(id))) {
          if (Date.now() > until) throw new Error(`outage: session ${id} did not fail`);
          await new Promise((r) => setTimeout(r, 5));
        }
    }
  } finally {
    if (before === undefined) delete emu.faults.config.model_outage;
    else emu.faults.config.model_outage = before;
  }
  return { agent_id: String(agent.id), error_type: errorType, session_ids: ids };
}

/** `POST /_emulator/scenarios/outage {sessions?, error_type?, turns?}` → the outage's agent and failed sessions. */
export function registerOutage(emu: Emulator): void {
  emu.admin.post('/_emulator/scenarios/outage', async (r) => {
    const body = (r.body ?? {}) as OutageOptions;
    if (body.error_type !== undefined && (typeof body.error_type !== 'string' || body.error_type === ''))
      throw new HttpError(
        400,
        'invalid_parameter_error',
        `error_type must be a session error type such as ${SESSION_ERROR_TYPES.slice(0, 3).join(', ')}`,
        'body.error_type',
      );
    return { status: 200, body: await runOutage(emu, body) };
  });
}
