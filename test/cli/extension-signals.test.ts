// Issue 45 item 3: a signal to svc while an extension or a `!` alias runs in its place, with real signals.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';

const bundled = useBundledSvc();
/** svc runs a test started, stopped after it whatever happened. */
const runs: { child: { kill(s: NodeJS.Signals): unknown } }[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.child.kill('SIGKILL');
});

/**
 * A child that says it started, logs each SIGTERM it gets, and exits `code` at the `exitAt`th (it ignores the ones
 * before): the log tells whether svc forwarded a signal.
 */
function trapScript(dir: string, exitAt: number, code: number): string {
  const log = join(dir, 'log');
  return [
    'n=0',
    `trap 'n=$((n+1)); echo term$n >> ${log}; [ $n -ge ${exitAt} ] && exit ${code}' TERM`,
    `echo started > ${join(dir, 'ready')}`,
    // Bounded, so a child svc failed to stop ends by itself.
    'i=0; while [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done',
  ].join('\n');
}

function extension(dir: string, body: string): void {
  writeFileSync(join(dir, 'svc-held'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, 'svc-held'), 0o755);
}

const lines = (dir: string) => (existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n') : []);

async function started(dir: string, pid: number | undefined): Promise<void> {
  await waitUntil(() => existsSync(join(dir, 'ready')), 'the child to start', 15_000);
  expect(pid).toBeDefined();
}

describe("signals while a child runs in svc's place (issue 45 item 3)", () => {
  it('SIGTERM to svc reaches the extension; svc waits for its end and never exits 0 after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ext-sig-'));
    extension(dir, trapScript(dir, 1, 0));
    const run = spawnSvc(bundled.bin, ['held'], { PATH: `${dir}:${process.env.PATH}`, SVC_CONFIG_DIR: tempConfigDir() });
    runs.push(run);
    await started(dir, run.child.pid);
    run.child.kill('SIGTERM');
    const end = await run.exit;
    expect(lines(dir)).toEqual(['term1']);
    expect(end.code).toBe(130);
  }, 30_000);

  it('a second SIGTERM goes to the extension too, and svc ends with it (its code), never leaving it running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ext-sig-'));
    extension(dir, trapScript(dir, 2, 7));
    const run = spawnSvc(bundled.bin, ['held'], { PATH: `${dir}:${process.env.PATH}`, SVC_CONFIG_DIR: tempConfigDir() });
    runs.push(run);
    await started(dir, run.child.pid);
    run.child.kill('SIGTERM');
    await waitUntil(() => lines(dir).length === 1, 'the first TERM to reach the child');
    run.child.kill('SIGTERM');
    const end = await run.exit;
    expect(lines(dir)).toEqual(['term1', 'term2']);
    expect(end.code).toBe(7);
  }, 30_000);

  it('the same for a ! alias: SIGTERM reaches its shell, exit 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-alias-sig-'));
    const config = tempConfigDir();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ aliases: { held: `!${trapScript(dir, 1, 0).replace(/\n/g, '; ')}` } }), { mode: 0o600 });
    const run = spawnSvc(bundled.bin, ['held'], { SVC_CONFIG_DIR: config });
    runs.push(run);
    await started(dir, run.child.pid);
    run.child.kill('SIGTERM');
    const end = await run.exit;
    expect(lines(dir)).toEqual(['term1']);
    expect(end.code).toBe(130);
  }, 30_000);
});
