import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';

/**
 * `svc` as `npm link` puts it on PATH: an executable `svc` in `<work>/path` that runs bin/svc.js over a private
 * bundle of src/ (as `npm run build` makes it). `work` must be inside node_modules so the bundle's external packages
 * resolve; never the shared dist/, which others rebuild. Returns the folder to put on PATH and the launcher.
 */
export async function svcOnPath(work: string): Promise<{ dir: string; launcher: string }> {
  const launcher = await buildPrivateSvc(work);
  const dir = join(work, 'path');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${launcher}" "$@"\n`, { mode: 0o755 });
  return { dir, launcher };
}
