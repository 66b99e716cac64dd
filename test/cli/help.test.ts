import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';
import { GROUPS, SECTIONS } from '../../src/cli/groups';

describe('svc help', () => {
  it('svc --help lists every command once, under the section its group table declares, sections in their order', async () => {
    const r = await svc(['--help']);
    expect(r.code).toBe(0);
    const headings = [...r.stdout.matchAll(/^(\S[^\n]*):$/gm)].map((m) => m[1]).filter((h) => h !== 'Options' && h !== 'Usage');
    expect(headings).toEqual([...SECTIONS]);
    // Each section's block: the lines after its heading up to the next blank line.
    const listed = new Map<string, string>();
    for (const section of SECTIONS) {
      const block = r.stdout.split(`\n${section}:\n`)[1]!.split('\n\n')[0]!;
      for (const m of block.matchAll(/^ {2}([a-z][\w-]*)/gm)) {
        expect(listed.has(m[1]!), `${m[1]} listed twice`).toBe(false);
        listed.set(m[1]!, section);
      }
    }
    for (const g of GROUPS.filter((g) => !g.hidden)) expect(listed.get(g.name), g.name).toBe(g.section);
    expect(listed.get('sessions')).toBe('Sessions and the fleet');
    expect(listed.get('agents')).toBe('Resources');
    expect(listed.get('help')).toBe('Local tools');
    expect(r.stdout).not.toMatch(/^Commands:$/m);
  });

  it('svc help GROUP prints exactly what svc GROUP --help prints, with its commands', async () => {
    const viaHelp = await svc(['help', 'sessions']);
    const viaFlag = await svc(['sessions', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/\nCommands:\n[\s\S]*\n {2}tail /);
  });

  it('svc help GROUP VERB prints exactly what svc GROUP VERB --help prints, not the group', async () => {
    const viaHelp = await svc(['help', 'sessions', 'tail']);
    const viaFlag = await svc(['sessions', 'tail', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^Usage: svc sessions tail /);
  });

  it('svc help VERB of a one-verb group (run) prints its help', async () => {
    const viaHelp = await svc(['help', 'run']);
    expect(viaHelp.stdout).toBe((await svc(['run', '--help'])).stdout);
  });

  it('svc version prints what svc --version prints', async () => {
    const v = await svc(['version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toBe((await svc(['--version'])).stdout);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('svc version with an argument is exit 2 naming it; global options around it are fine (issue 45 item 23)', async () => {
    for (const args of [
      ['version', 'extra-arg'],
      ['--profile', 'p', 'version', 'x'],
      ['version', '--no-color', 'y'],
    ]) {
      const r = await svc(args);
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr).toBe(`error: svc version takes no arguments (got "${args[args.length - 1]}")\n`);
    }
    expect((await svc(['--profile', 'p', 'version', '--no-color'])).code).toBe(0);
  });

  it('svc version --help and svc help version print the help of version, not the version', async () => {
    for (const args of [
      ['version', '--help'],
      ['version', '-h'],
      ['help', 'version'],
    ]) {
      const r = await svc(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: svc version/);
      expect(r.stdout).not.toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('svc help environment lists the environment variables of the contract', async () => {
    const r = await svc(['help', 'environment']);
    expect(r.code).toBe(0);
    for (const v of [
      'SVC_API_KEY',
      'SVC_BASE_URL',
      'SVC_PROFILE',
      'SVC_ENVIRONMENT_KEY',
      'SVC_API_VERSION',
      'SVC_CONFIG_DIR',
      'SVC_DEBUG',
      'SVC_MAX_RETRIES',
      'NO_COLOR',
      'FORCE_COLOR',
    ])
      expect(r.stdout).toContain(v);
  });

  it('svc help exit-codes prints the exit-code table', async () => {
    const r = await svc(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 124, 130]) expect(r.stdout).toMatch(new RegExp(`^ {2}${code} +\\S`, 'm'));
  });

  it('svc help formatting names every output format and --jq', async () => {
    const r = await svc(['help', 'formatting']);
    expect(r.code).toBe(0);
    for (const f of ['table', 'json', 'ndjson', 'yaml', 'id', '--jq']) expect(r.stdout).toContain(f);
  });

  it('svc --help names the help topics', async () => {
    const r = await svc(['--help']);
    expect(r.stdout).toContain('svc help exit-codes');
  });

  it('svc help with an unknown word is exit 2 naming it', async () => {
    const r = await svc(['help', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nope/);
    expect(r.stdout).toBe('');
  });

  it('svc help alone prints the program help', async () => {
    const r = await svc(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await svc(['--help'])).stdout);
  });
});

describe('--timeout is listed once', () => {
  for (const args of [['run'], ['sessions', 'wait']]) {
    it(`svc ${args.join(' ')} --help lists --timeout once, as the whole command's bound, and --request-timeout`, async () => {
      const r = await svc([...args, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout.match(/^ +--timeout\b/gm)).toHaveLength(1);
      expect(r.stdout).toMatch(/--timeout <duration> +give up after this long/);
      expect(r.stdout).toContain('--request-timeout <seconds>');
    });
  }

  it('svc agents list --help lists the per-request --request-timeout, and --timeout once, as the bound of --watch', async () => {
    const r = await svc(['agents', 'list', '--help']);
    expect(r.stdout).toContain('--request-timeout <seconds>');
    expect(r.stdout.match(/^ +--timeout\b/gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/--timeout <duration> +with --watch: stop after this long/);
  });
});
