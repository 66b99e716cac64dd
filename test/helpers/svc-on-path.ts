import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedBundle } from './bundled';

/**
 * `svc` as `npm link` puts it on PATH: an executable `svc` in `<work>/path` that runs bin/svc.js of the test run's
 * shared build (test/helpers/bundled.ts), laid out as `npm run build` makes it. Returns the folder to put on PATH and
 * the launcher.
 */
export async function svcOnPath(work: string): Promise<{ dir: string; launcher: string }> {
  const launcher = await sharedBundle();
  const dir = join(work, 'path');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${launcher}" "$@"\n`, { mode: 0o755 });
  return { dir, launcher };
}
