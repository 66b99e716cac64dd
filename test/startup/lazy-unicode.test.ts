// The built svc makes its Unicode machinery (grapheme segmenters, string-width's `v`-flag property regexes) on first
// use, not as its table code loads: a request command prints JSON, or ASCII, without building any (scripts/build/PERF.md).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { spawnSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Preloaded: counts, at exit, the Intl.Segmenters and the `v`-flag RegExps the process made through their constructors. */
const COUNTER = `'use strict';
const made = { segmenters: 0, vRegexes: 0 };
const count = (key, ok) => (target) => new Proxy(target, { construct(t, args, nt) { if (ok(args)) made[key]++; return Reflect.construct(t, args, nt); } });
Intl.Segmenter = count('segmenters', () => true)(Intl.Segmenter);
globalThis.RegExp = count('vRegexes', (args) => String(args[1] ?? '').includes('v'))(RegExp);
process.on('exit', () => require('node:fs').writeFileSync(process.env.SVC_TEST_COUNTS, JSON.stringify(made)));`;

// CI builds dist/ first: there a missing build fails these tests instead of skipping them.
describe.skipIf(!existsSync(join(root, 'dist/cli.js')) && !process.env.CI)('Unicode machinery on first use (needs `npm run build`)', () => {
  const h = useEmulator();

  async function run(args: string[]): Promise<{ code: number | null; stdout: string; made: { segmenters: number; vRegexes: number } }> {
    const dir = tempConfigDir();
    const counter = join(dir, 'counter.cjs');
    writeFileSync(counter, COUNTER);
    const counts = join(dir, 'counts.json');
    const env = { SVC_BASE_URL: h.emu.url, SVC_API_KEY: h.emu.apiKey, SVC_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${counter}`, SVC_TEST_COUNTS: counts };
    const { code, stdout } = await spawnSvc(join(root, 'bin/svc.js'), args, env).exit;
    return { code, stdout, made: JSON.parse(readFileSync(counts, 'utf8')) };
  }

  it('agents get, as JSON or as an ASCII table, makes no segmenter and no v-flag regex', async () => {
    const { body } = await call(h.emu, 'POST', '/v1/agents', { body: { name: 'plain', model: 'scripted-1' } });
    for (const output of ['json', 'table']) {
      const r = await run(['agents', 'get', body.id, '-o', output]);
      expect(r.code, output).toBe(0);
      expect(r.stdout, output).toContain('plain');
      expect(r.made, output).toEqual({ segmenters: 0, vRegexes: 0 });
    }
  });

  it('a table with wide characters makes them and lines its columns up by display width', async () => {
    for (const name of ['日本語👍 bot', 'ascii-name']) await call(h.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } });
    const r = await run(['agents', 'list', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.made.vRegexes).toBeGreaterThan(0);
    // The column after NAME starts at one display column on the header and on every row.
    const lines = r.stdout.trimEnd().split('\n');
    const modelAt = (line: string) => stringWidth(line.slice(0, line.indexOf(line.includes('MODEL') ? 'MODEL' : 'scripted-1')));
    expect(lines.some((l) => l.includes('日本語👍 bot'))).toBe(true);
    expect(new Set(lines.map(modelAt)).size).toBe(1);
  });
});
