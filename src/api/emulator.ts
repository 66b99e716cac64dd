import type { ApiClient } from './client';
import { seg } from './path';

/** The emulator's loopback admin paths (`/_emulator/…`), which only `svc emulator` commands call. */
export const emulatorAdmin = {
  /** Issues an environment work key for a self-hosted environment of the emulator. */
  issueWorkKey: async (c: ApiClient, environmentId: string): Promise<string> =>
    (await c.json<{ key: string }>({ method: 'POST', path: `/_emulator/environments/${seg(environmentId)}/keys` })).data.key,
};
