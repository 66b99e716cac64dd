import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manPages } from '../../src/cli/main';
import { svc, tempConfigDir } from '../helpers/cli';
import { describeWith } from '../helpers/requires';

const repo = new URL('../..', import.meta.url).pathname;

describe('svc help reference', () => {
  it('prints every command with its own flags on one page, the global flags once', async () => {
    const r = await svc(['help', 'reference'], { env: { SVC_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(0);
    for (const usage of ['svc sessions wait [options] [sessions...]', 'svc worker run [options]', 'svc agents get [options] <id>', 'svc run [options]'])
      expect(r.stdout).toContain(usage);
    expect(r.stdout).toMatch(/svc sessions tail \[options\] <session>\n.*\n(.*\n)*? {4}--until /);
    expect(r.stdout.match(/--base-url <url>/g)).toHaveLength(1);
    expect(r.stdout).not.toContain('__complete');
  });
});

describe('man pages', () => {
  it('one page per top-level command and svc(1) naming each; package.json installs exactly these (else: npm run generate)', async () => {
    const pages = await manPages('2026-01-01');
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { man: string[] };
    expect(pkg.man.map((p) => p.replace('./dist/man/', '')).sort()).toEqual(Object.keys(pages).sort());
    expect(pages['svc.1']).toContain('svc\\-sessions (1)');
    expect(pages['svc-sessions.1']).toContain('.SH SVC SESSIONS WAIT');
  });

  describeWith('rendered by man and groff', ['man', 'groff'], () => {
    it('every page formats with no groff warning (all warnings on), and man -l renders svc(1)', async () => {
      const dir = tempConfigDir();
      for (const [name, text] of Object.entries(await manPages('2026-01-01'))) {
        const file = join(dir, name);
        writeFileSync(file, text);
        // groff is what man runs underneath; called directly it checks the pages in a fraction of man's time.
        const r = spawnSync('groff', ['-man', '-ww', '-z', '-Tutf8', file], { encoding: 'utf8' });
        expect({ name, status: r.status, stderr: r.stderr }).toEqual({ name, status: 0, stderr: '' });
      }
      const r = spawnSync('man', ['--warnings', '-l', join(dir, 'svc.1')], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80' } });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      expect(r.stdout).toMatch(/^SVC\(1\)/);
      expect(r.stdout).toContain('sessions');
    }, 60_000);
  });
});
