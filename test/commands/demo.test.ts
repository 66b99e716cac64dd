import { execFile as execFileCb } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { copyOfBuild, sharedBundle } from '../helpers/bundled';
import { svcCommand } from '../../src/commands/demo/launcher';
import { printTranscript } from '../../src/commands/demo/transcript';
import { tryIt } from '../../src/commands/demo/run';
import { client as emulatorClient } from '../api/stream/helpers';
import { svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });

describe('svc demo', () => {
  it('without a terminal prints one line per event: two delegated threads, the confirmation answered automatically, then idle', async () => {
    const r = await svc(['demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^svc demo: an emulator of the service runs at http:\/\/127\.0\.0\.1:\d+; agent \S+, session \S+$/);
    expect(lines).toContain('sending: /delegate 2');
    expect(lines).toContain('you: /delegate 2');
    // Both child threads start, speak (tagged with their name) and finish.
    for (const n of [1, 2]) {
      expect(lines.some((l) => l.startsWith(`[worker-${n}] thread started: worker-${n} `))).toBe(true);
      expect(lines).toContain(`[worker-${n}] agent: Thread ${n} finished its part.`);
      expect(lines).toContain(`[worker-${n}] thread idle`);
    }
    expect(lines).toContain('agent: All 2 threads finished.');
    // The always_ask tool waits, is answered by the demo (saying so), then runs.
    const ask = lines.findIndex((l) => l === 'tool bash: {"command":"ls -la"}  awaiting confirmation');
    expect(ask).toBeGreaterThan(0);
    expect(lines.slice(ask).some((l) => /^\(demo\) answering the confirmation automatically: allow \S+$/.test(l))).toBe(true);
    expect(lines.slice(ask).some((l) => /^allowed: \S+$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('tool result: bash ran'))).toBe(true);
    expect(lines).toContain('agent: Done with bash.');
    // One line per event, ending on the idle of the second turn.
    expect(lines.filter((l) => l === 'idle: end_turn')).toHaveLength(2);
    expect(lines.at(-6)).toBe('idle: end_turn');
    expect(lines.at(-5)).toBe('The session is idle. Try it yourself, in this shell:');
  });

  it('rejects an unexpected argument with exit 2 and one error line, before starting anything', async () => {
    const r = await svc(['demo', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('the transcript ends as soon as the session is terminated, instead of waiting out its time limit', async () => {
    const s = await createSession(t.emu);
    const client = emulatorClient(t.emu, 0);
    await send(t.emu, s.id, '/echo first of two turns');
    const lines: string[] = [];
    const limit = AbortSignal.timeout(5_000);
    const done = printTranscript({ client, sessionId: s.id, turns: 2, say: (l) => void lines.push(l), signal: limit });
    // The first turn ends; the session is archived (terminated) before a second one.
    await waitUntil(() => lines.includes('idle: end_turn'), 'the first turn to end');
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`)).status).toBe(200);
    await expect(done).resolves.toBe('terminated');
    expect(limit.aborted).toBe(false);
  });
});

describe("the demo's closing hint (issue 26)", () => {
  it('starts the emulator as the README does (--log, not a redirect), and svc emulator --help says what --api-key, --log and --quiet do, as the README', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = tryIt('svc')
      .split('\n')
      .find((l) => l.includes('emulator --port'))!
      .trim();
    expect(readme).toContain(start);
    const help = (await svc(['emulator', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--api-key KEY fixes that key, else a fresh one is made');
    expect(help).toContain('Its request log goes to standard error, to --log FILE, or nowhere with --quiet');
    expect(readme.replace(/\s+/g, ' ')).toContain('`--api-key` fixes the key');
    expect(readme.replace(/\s+/g, ' ')).toContain('appends its request log to `emulator.log` (`--quiet` drops it)');
  });

  it("names svc as this user starts it: node bin/svc.js in a checkout, svc when the PATH leads to it, never npx's own PATH", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-launcher-'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'svc.js'), '');
    const script = join(dir, 'bin', 'svc.js');
    expect(svcCommand({ script, path: '/usr/bin', cwd: dir })).toBe('node bin/svc.js');
    expect(svcCommand({ script, path: '/usr/bin', cwd: mkdtempSync(join(tmpdir(), 'svc-elsewhere-')) })).toBe(`node ${script}`);
    const linked = join(dir, 'global');
    mkdirSync(linked);
    symlinkSync(script, join(linked, 'svc'));
    expect(svcCommand({ script, path: `/usr/bin:${linked}`, cwd: dir })).toBe('svc');
    const npx = join(dir, 'node_modules', '.bin');
    mkdirSync(npx, { recursive: true });
    symlinkSync(script, join(npx, 'svc'));
    expect(svcCommand({ script: join(npx, 'svc'), path: npx, cwd: dir })).toBe('node bin/svc.js');
    expect(svcCommand({ script: '/somewhere/vitest.mjs', path: '', cwd: dir })).toBe('svc');
  });

  it('names the single executable by its path, with no node before it, and svc when the PATH leads to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-executable-'));
    mkdirSync(join(dir, 'sea'));
    const exe = join(dir, 'sea', 'svc');
    writeFileSync(exe, '');
    expect(svcCommand({ script: exe, path: '/usr/bin', cwd: dir, executable: true })).toBe('./sea/svc');
    expect(svcCommand({ script: exe, path: '/usr/bin', cwd: mkdtempSync(join(tmpdir(), 'svc-elsewhere-')), executable: true })).toBe(exe);
    expect(svcCommand({ script: exe, path: `/usr/bin:${join(dir, 'sea')}`, cwd: dir, executable: true })).toBe('svc');
  });

  it('runs as printed before npm link: the piped demo of a checkout prints lines that bash runs to a reply', async () => {
    const execFile = promisify(execFileCb);
    const repo = new URL('../..', import.meta.url).pathname;
    // A checkout's layout (bin/ and dist/ in the working folder, which the hint names), in a copy: the run's build is shared.
    const work = join(repo, 'node_modules', '.cache', `demo-hint-${process.pid}`);
    try {
      copyOfBuild(await sharedBundle(), work);
      // No compile cache: the hint's background emulator could still be writing entries into `work` as it is removed.
      const env = { PATH: '/usr/bin:/bin', HOME: work, SVC_CONFIG_DIR: work, NODE_DISABLE_COMPILE_CACHE: '1' };
      const demo = await execFile(process.execPath, ['bin/svc.js', 'demo'], { cwd: work, env: { ...env, PATH: `${process.env.PATH}` } });
      const hint = demo.stdout.slice(demo.stdout.indexOf('Try it yourself, in this shell:\n') + 'Try it yourself, in this shell:\n'.length);
      expect(hint).toMatch(/^ {2}node bin\/svc\.js emulator /);
      expect(hint).not.toMatch(/(^|[^/])svc (run|agents|emulator)/m);
      const script = hint
        .trimEnd()
        .split('\n')
        .map((l) => l.trim())
        .join('\n');
      const nodeDir = join(process.execPath, '..');
      const r = await execFile('bash', ['-c', script], { cwd: work, env: { ...env, PATH: `${nodeDir}:/usr/bin:/bin` }, timeout: 60_000 });
      // The run printed the agent's reply after the emulator's two export lines (as the README says it prints them);
      // its request log went to the file, not to the terminal.
      expect(r.stdout).toMatch(/^export SVC_BASE_URL=\S+\nexport SVC_API_KEY=\S+\n/);
      expect(r.stdout.replace(/^export SVC_.*\n/gm, '').trim()).not.toBe('');
      expect(readFileSync(join(work, 'emulator.log'), 'utf8')).toMatch(/POST \/v1\/agents/);
      expect(r.stderr).not.toMatch(/POST \/v1\/agents/);
    } finally {
      rmSync(work, { recursive: true, force: true, maxRetries: 5 });
    }
  }, 120_000);
});
