import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';

/**
 * svc bundled into a private folder (the shared dist/ is left alone), inside node_modules so the bundle's external
 * packages resolve, with its emulator started as a child on port 0. `close()` stops the emulator and removes the folder.
 */
export async function privateSvc(root, name, apiKey) {
  const work = join(root, 'node_modules', '.cache', `${name}-${process.pid}`);
  const svcBin = await buildPrivateSvc(work);
  const emulator = spawn(process.execPath, [svcBin, 'emulator', '--port', '0', '--api-key', apiKey], { stdio: ['ignore', 'pipe', 'ignore'] });
  const emuEnv = await new Promise((resolve, reject) => {
    let text = '';
    emulator.stdout.on('data', (d) => {
      text += d;
      const url = /SVC_BASE_URL=(\S+)/.exec(text)?.[1];
      if (url) resolve({ SVC_BASE_URL: url, SVC_API_KEY: apiKey });
    });
    emulator.on('exit', (c) => reject(new Error(`emulator exited ${c}`)));
  });
  const close = () => {
    emulator.kill();
    rmSync(work, { recursive: true, force: true });
  };
  return { svcBin, emuEnv, close };
}
