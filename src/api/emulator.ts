import type { ApiClient } from './client';
import { seg } from './path';

/** The emulator's loopback admin paths (`/_emulator/…`), which only `svc emulator` commands call. */
export const emulatorAdmin = {
  /** Issues an environment work key for a self-hosted environment of the emulator. */
  issueWorkKey: async (c: ApiClient, environmentId: string): Promise<string> =>
    (await c.json<{ key: string }>({ method: 'POST', path: `/_emulator/environments/${seg(environmentId)}/keys` })).data.key,
  /** Runs the outage scenario: sessions that fail with `error_type` in a model outage that then ends. */
  outage: async (c: ApiClient, body: { sessions: number; error_type: string; turns: number }) =>
    (
      await c.json<{ agent_id: string; error_type: string; session_ids: string[] }>({
        method: 'POST',
        path: '/_emulator/scenarios/outage',
        json: body,
        timeoutMs: 0,
      })
    ).data,
};
