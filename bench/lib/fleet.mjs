/** Fleet benches' shared set-up: a private svc with its emulator, and many sessions made through the API. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateSvc } from './private-svc.mjs';

export async function fleet(root, name) {
  const { svcBin, emuEnv, close } = await privateSvc(root, name, `sk_${name.replace(/-/g, '_')}`);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), `svc-${name}-`)), ...emuEnv };
  // A kept-alive connection the emulator closed while the bench ran something else fails once on write: retried.
  const api = async (method, path, body, retried = false) => {
    let res;
    try {
      res = await fetch(emuEnv.SVC_BASE_URL + path, {
        method,
        headers: { authorization: `Bearer ${emuEnv.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      if (retried) throw e;
      return api(method, path, body, true);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  };
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
