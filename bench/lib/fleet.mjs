/** Fleet benches' shared set-up: a private svc with its emulator, and many sessions made through the API. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatorApi } from './api.mjs';
import { privateSvc } from './private-svc.mjs';

export async function fleet(root, name) {
  const { svcBin, emuEnv, close } = await privateSvc(root, name, `sk_${name.replace(/-/g, '_')}`);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), `svc-${name}-`)), ...emuEnv };
  const api = emulatorApi(emuEnv);
  /** `n` idle sessions of one agent labelled `metadata`, created `inFlight` at a time. */
  const sessions = async (n, metadata, inFlight = 4) => {
    const agent = await api('POST', '/v1/agents', { name: `bench-${Object.values(metadata).join('-')}`, model: 'scripted-1' });
    let next = 0;
    const ids = [];
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < n) {
          next++;
          ids.push((await api('POST', '/v1/sessions', { agent_id: agent.id, metadata, title: 'bench' })).id);
        }
      }),
    );
    return ids;
  };
  return { svcBin, env, emuEnv, api, sessions, close };
}
