import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_FILE_NAME } from '../../src/completion/cache';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator();
const repo = new URL('../..', import.meta.url).pathname;

describe('the completion cache', () => {
  beforeAll(() => import('../../src/api/client'));

  it('an entry of the wrong shape (hand-edited, an older svc) is never a failure: it is fetched afresh and the file refilled', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'cached agent', model: 'm' } })).body;
    const env = emuEnv(t.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    const file = join(env.SVC_CONFIG_DIR!, CACHE_FILE_NAME);
    // Each answer must come within the completion's time budget: on a loaded machine it is asked until it does.
    const answered = () =>
      waitUntil(async () => {
        const r = await svc(['__complete', '--', 'agents', 'get', ''], { env });
        return r.stdout.includes(`${agent.id}\tcached agent`) && r;
      }, 'a completion that lists the agent');
    await answered();
    // Every entry made fresh for ever but with items that are not candidates.
    const broken = Object.fromEntries(Object.keys(JSON.parse(readFileSync(file, 'utf8'))).map((k) => [k, { at: 9e15, items: 'not a list' }]));
    writeFileSync(file, JSON.stringify(broken));
    const before = await requestCount(t.emu);
    expect(await answered()).toMatchObject({ code: 0, stderr: '' });
    expect(await requestCount(t.emu)).toBeGreaterThan(before);
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8'))).every((e: any) => Array.isArray(e.items))).toBe(true);
  });

  describe('a write that fails midway (a full disk: here a file-size limit of 0)', () => {
    let work: string;
    let script: string;
    beforeAll(async () => {
      work = mkdtempSync(join(repo, 'node_modules', '.cache', 'completion-cache-'));
      script = join(work, 'cache.mjs');
      // One module on its own for the child to import, not svc: the run's shared build (helpers/bundled.ts) has no such entry.
      await build({ entryPoints: [join(repo, 'src/completion/cache.ts')], bundle: true, platform: 'node', format: 'esm', outfile: script, logLevel: 'silent' });
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('leaves no *.tmp file behind and the old cache as it was', () => {
      const dir = join(work, 'config');
      const program = `import { CompletionCache } from ${JSON.stringify(script)};
        const cache = new CompletionCache(${JSON.stringify(dir)}, Date.now);
        try { cache.write('k', [{ value: 'agent_1', label: 'a name long enough to need a block' }]); } catch (e) { console.log(e.code); }`;
      // Node ignores SIGXFSZ, so a write past the limit fails with EFBIG as a full disk fails with ENOSPC.
      const r = spawnSync(
        'sh',
        [
          '-c',
          `mkdir -p "$1" && echo old > "$1/${CACHE_FILE_NAME}" && ulimit -f 0 && exec "$2" --input-type=module -e "$3"`,
          'sh',
          dir,
          process.execPath,
          program,
        ],
        {
          encoding: 'utf8',
        },
      );
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('EFBIG');
      expect(readdirSync(dir)).toEqual([CACHE_FILE_NAME]);
      expect(readFileSync(join(dir, CACHE_FILE_NAME), 'utf8')).toBe('old\n');
    });
  });
});
