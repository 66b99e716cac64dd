import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeScript, unlabelled } from './helpers/readme-script';
import { svcOnPath } from './helpers/svc-on-path';
import { describeWith } from './helpers/requires';

/*
 * The README, followed literally. Its shell blocks run in order in one fresh bash (no rc files, an empty HOME and
 * working folder, no SVC_* variables), with `svc` on PATH as `npm link` puts it there: a link to bin/svc.js (over a
 * private bundle of src/). The conventions, also stated in an HTML comment at the top of README.md:
 * - Only blocks fenced ```sh (or ```bash) run. ```console blocks (installs: apt-get, npm ci, npm link, npm test),
 *   ```zsh and ```fish blocks, ```yaml, ```json, ```text and unlabelled blocks are shown, never run; any other
 *   label fails the test, so no block is skipped by accident.
 * - A ```yaml file=NAME block is written to NAME in the working folder when reached, for the commands after it.
 * - A command that runs until stopped (the emulator, a worker) ends with `&`, as a user would start it in one shell;
 *   the test stops everything the script started when it ends. Everything else must end by itself: bounding flags
 *   such as `sessions tail --until idle`, `--timeout`, `--max-idle`.
 * - Every command must succeed (errexit, pipefail); IDs come from earlier output (`AGENT_ID=$(… -q)`), never
 *   placeholders. A failure names the README line.
 */

const repo = new URL('..', import.meta.url).pathname;
/** The test's own folder: svc on PATH and what the README's blocks write. */
const work = join(repo, 'node_modules', '.cache', `readme-test-${process.pid}`);

describe('the README conventions (test/helpers/readme-script.ts)', () => {
  it('only sh blocks run, in order; a yaml file=NAME block is written to NAME; console, zsh, fish, yaml and plain blocks are not run', () => {
    const md = [
      '```console',
      'npm ci',
      '```',
      '```sh',
      'svc one',
      '```',
      '```yaml file=stack.yaml',
      'name: x',
      '```',
      '```yaml',
      'not: run',
      '```',
      '```zsh',
      'zsh-only',
      '```',
      '```',
      'listing',
      '```',
      '```sh',
      'svc two &',
      '```',
    ].join('\n');
    const { script, readmeLines } = readmeScript(md);
    const body = script.split('\n').slice(2, -1);
    expect(body).toEqual(['svc one', "cat > 'stack.yaml' <<'SVC_README_EOF'", 'name: x', 'SVC_README_EOF', 'svc two &']);
    expect(readmeLines.slice(2)).toEqual([5, 7, 8, 9, 20]);
  });

  it('every block of README.md is labelled to run (sh, bash) or to be shown (console, zsh, fish, yaml, json, text, none)', () => {
    expect(unlabelled(readFileSync(join(repo, 'README.md'), 'utf8'))).toEqual([]);
    expect(unlabelled('```python\nprint(1)\n```\n')).toEqual(['README.md:1 ```python']);
  });
});

describeWith('the README, followed literally in a fresh bash', ['bash'], () => {
  let path: string;

  beforeAll(async () => {
    const { dir } = await svcOnPath(work);
    path = [dir, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  }, 90_000);
  afterAll(() => {
    // A script that hung past the test's timeout: stop it and what it started.
    if (running) signalGroup(running, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('every sh block of README.md runs in order, each command succeeding, against the emulator it starts on a free port', async () => {
    const { script, readmeLines } = readmeScript(readFileSync(join(repo, 'README.md'), 'utf8'));
    const cwd = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    const home = mkdtempSync(join(tmpdir(), 'svc-readme-home-'));
    writeFileSync(join(work, 'readme.sh'), script);
    const r = await runBash(join(work, 'readme.sh'), { cwd, env: { PATH: path, HOME: home, TERM: 'dumb', LANG: 'C.UTF-8' } });
    const failed = /README-FAILED line=(\d+) exit=(\d+) command=(.*)/.exec(r.stderr);
    const where = failed ? `README.md:${readmeLines[Number(failed[1]) - 1]} exited ${failed[2]}: ${failed[3]}` : `bash exited ${r.code}`;
    expect(r.code, `${where}\n--- stderr (last lines) ---\n${r.stderr.split('\n').slice(-40).join('\n')}`).toBe(0);
  }, 240_000);
});

/**
 * Runs the script in its own process group, and when bash exits stops what it left in the background (the
 * emulator, a worker) by signalling the group: their output pipes close only then.
 */
/** The process group of the script while it runs. */
let running: number | undefined;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function runBash(file: string, o: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', file], { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    running = child.pid;
    const group = (signal: NodeJS.Signals) => signalGroup(child.pid!, signal);
    const closed = Promise.all([new Promise((r) => child.stdout.on('close', r)), new Promise((r) => child.stderr.on('close', r))]);
    child.on('exit', (code) => {
      group('SIGTERM');
      const hard = setTimeout(() => group('SIGKILL'), 5_000);
      void closed.then(() => {
        clearTimeout(hard);
        running = undefined;
        resolve({ code, stdout, stderr });
      });
    });
  });
}
