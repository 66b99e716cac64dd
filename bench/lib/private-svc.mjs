import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';
import { startEmulator } from './emulator-process.mjs';

/**
 * svc bundled into a private folder (the shared dist/ is left alone), inside node_modules so the bundle's external
 * packages resolve, with its emulator started as a child on port 0. `close()` stops the emulator and removes the folder.
 */
export async function privateSvc(root, name, apiKey) {
  const work = join(root, 'node_modules', '.cache', `${name}-${process.pid}`);
  const svcBin = await buildPrivateSvc(work);
  const emulator = startEmulator(process.execPath, [svcBin], apiKey, process.env);
  const emuEnv = { SVC_BASE_URL: await emulator.url, SVC_API_KEY: apiKey };
  const close = () => {
    emulator.child.kill();
    rmSync(work, { recursive: true, force: true });
  };
  return { svcBin, emuEnv, close };
}
