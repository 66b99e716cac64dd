/**
 * Vitest's global setup: dist/ built when missing or older than the sources (scripts/build.mjs `--if-stale`, as `npm run
 * demo` does), for the tests that run the checkout's own bin/svc.js; and the one private build of svc for the whole test run (scripts/bundle.mjs `buildPrivateSvc`),
 * shared by every test that runs real processes (test/helpers/bundled.ts). It is built on the first ask, not at the
 * start, so a run of files that need no bundle pays nothing: a test asks over loopback and the answer comes once the
 * build is done. A rerun in watch mode builds afresh, since the sources may have changed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';
import { build } from '../../scripts/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where to ask for the run's bundle (GET answers `{ bin }` once it is built, or `{ error }`). */
    svcBundleUrl: string;
  }
}

const repo = new URL('../..', import.meta.url).pathname;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await build({ ifStale: true });
  // With the checkout's other caches (git ignores node_modules); never the shared dist/, which others rebuild.
  const work = join(repo, 'node_modules', '.cache', `svc-test-bundle-${process.pid}`);
  let built: Promise<string> | undefined;
  project.onTestsRerun(() => {
    built = undefined;
  });
  const server = createServer((_req, res) => {
    built ??= buildPrivateSvc(work);
    // Headers at once: the build may take longer than a client waits for them on a loaded machine.
    res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
    built.then(
      (bin) => res.end(JSON.stringify({ bin })),
      (e: unknown) => res.end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('svcBundleUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return async () => {
    server.close();
    await built?.catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
}
