/** The emulator as a process of its own (a bench's own build of svc, the executable), and an agent of its scripted model to read. */
import { spawn } from 'node:child_process';

/** `svc emulator --port 0` run by `cmd` with `args` before it; `url` resolves once it listens. */
export function startEmulator(cmd, args, apiKey, env) {
  const child = spawn(cmd, [...args, 'emulator', '--port', '0', '--api-key', apiKey], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      const m = /SVC_BASE_URL=(\S+)/.exec((text += d));
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
  });
  return { child, url };
}

/** An agent of the emulator's scripted model, for a command to read. */
export async function scriptedAgent(url, apiKey, name) {
  const headers = { authorization: `Bearer ${apiKey}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' };
  const created = await fetch(`${url}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name, model: 'scripted-1' }) });
  if (!created.ok) throw new Error(`the emulator answered ${created.status} to an agent's create`);
  return created.json();
}
