import type { Emulator } from './server';
import { parseFaults, type FaultConfig } from './faults';
import { HttpError, notFound } from './errors';

/**
 * `/_emulator/*`: fault injection and stats (docs/behaviour.md "The emulator"), and `GET /_emulator/webhooks` → `{items}`,
 * the webhooks sent so far, oldest first (see webhooks.ts). Trigger schedule paths are in triggers.ts.
 * `GET /_emulator/sessions/{id}/model-requests`, `…/mcp` and `…/egress` → `{items}`, oldest first: what the
 * platform did around the scripted model that no event shows (see sessions/platform.ts, sessions/egress.ts).
 */
export function registerAdmin(emu: Emulator): void {
  const platform = (id: string) => emu.services.sessions?.platform?.(id) ?? notFound('session', id);
  emu.admin.get('/_emulator/sessions/:id/model-requests', (r) => ({ status: 200, body: { items: platform(r.params.id).tools.requests } }));
  emu.admin.get('/_emulator/sessions/:id/mcp', (r) => ({ status: 200, body: { items: platform(r.params.id).mcp.log } }));
  emu.admin.get('/_emulator/sessions/:id/egress', (r) => ({ status: 200, body: { items: platform(r.params.id).egress.log } }));
  // Hand-built histories for tests and benchmarks: `{items: [event…], session?: {changes}}`, appended as given. The
  // session's `updated_at` is now, or the time given in `session.updated_at` (a history that ended in the past).
  emu.admin.post('/_emulator/sessions/:id/history', (r) => {
    const body = (r.body ?? {}) as { items?: unknown; session?: { updated_at?: unknown } };
    if (!Array.isArray(body.items)) throw new HttpError(400, 'invalid_parameter_error', 'items must be an array of events', 'body.items');
    const at = body.session?.updated_at;
    if (at !== undefined && (typeof at !== 'string' || Number.isNaN(Date.parse(at))))
      throw new HttpError(400, 'invalid_parameter_error', 'session.updated_at must be an ISO 8601 time', 'body.session.updated_at');
    const append = emu.services.sessions?.appendHistory ?? notFound('session', r.params.id);
    append(r.params.id, body.items as Array<Record<string, unknown>>, (body.session ?? {}) as Record<string, unknown>);
    return { status: 204 };
  });
  emu.admin.get('/_emulator/stats', () => ({ status: 200, body: { ...emu.faults.stats } }));
  emu.admin.get('/_emulator/webhooks', () => ({ status: 200, body: { items: emu.webhooks.outbox } }));
  emu.admin.get('/_emulator/faults', () => ({ status: 200, body: emu.faults.config }));
  emu.admin.post('/_emulator/faults', (r) => {
    let config: FaultConfig;
    try {
      config =
        typeof r.body === 'string'
          ? parseFaults(r.body)
          : parseFaults(
              Object.entries(r.body ?? {})
                .map(([k, v]) => `${k}=${v}`)
                .join(','),
            );
    } catch (e) {
      throw new HttpError(400, 'invalid_parameter_error', (e as Error).message, 'body');
    }
    emu.faults.set(config);
    return { status: 200, body: emu.faults.config };
  });
}
