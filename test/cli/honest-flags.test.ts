import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { Capture, emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession, send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
let fileId: string;
let storeId: string;
let sid: string;

beforeAll(async () => {
  const form = new FormData();
  form.append('file', new Blob(['hello\n']), 'hello.txt');
  const up = await fetch(`${t.emu.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${t.emu.apiKey}` }, body: form });
  fileId = ((await up.json()) as { id: string }).id;
  storeId = (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: 'honest' } })).body.id;
  const s = await createSession(t.emu, { title: 'exported' });
  sid = s.id;
  await send(t.emu, sid, 'hi');
  await waitSession(t.emu, sid, (x) => x.status === 'idle' && x.stop_reason, 'the turn');
});

/** Exit 2, one line naming the flag, and not one request sent. */
async function refused(args: string[], flag: string, o: Parameters<typeof svc>[1] = {}): Promise<void> {
  const before = await requestCount(t.emu);
  const r = await svc(args, { env: env(), ...o });
  expect(r.code, args.join(' ')).toBe(2);
  expect(r.stdout, args.join(' ')).toBe('');
  expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^error: ${flag.replace(/[-.]/g, '\\$&')} does not apply to svc [^\\n]+\\n$`));
  expect(await requestCount(t.emu), args.join(' ')).toBe(before);
}

describe('output flags on verbs that print text are exit 2, never ignored', () => {
  it('a download writes the bytes: -o json, -q and --jq are exit 2 with nothing sent; without them it prints the bytes', async () => {
    await refused(['files', 'download', fileId, '-o', 'json'], '-o json');
    await refused(['files', 'download', fileId, '-q'], '-q');
    await refused(['files', 'download', fileId, '--jq', '.'], '--jq');
    const r = await svc(['files', 'download', fileId], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
  });

  it("a profile's output setting is a default, not a request: a download still prints its bytes", async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ current_profile: 'default', profiles: { default: { output: 'yaml' } } }), { mode: 0o600 });
    const r = await svc(['files', 'download', fileId], { env: { ...env(), SVC_CONFIG_DIR: dir } });
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
  });

  it('memories cat, auth token, config get, completion, demo, emulator, worker and the version refuse -o, -q and --jq', async () => {
    await refused(['memories', 'cat', storeId, '/none.md', '--jq', '.'], '--jq');
    await refused(['memories', 'cat', storeId, '/none.md', '-o', 'json'], '-o json');
    await refused(['auth', 'token', '-q'], '-q');
    await refused(['auth', 'token', '-o', 'json'], '-o json');
    await refused(['config', 'get', 'base_url', '-o', 'yaml'], '-o yaml');
    await refused(['completion', 'bash', '-o', 'json'], '-o json');
    await refused(['version', '-o', 'json'], '-o');
    await refused(['--version', '--jq', '.'], '--jq');
    await refused(['demo', '-o', 'json'], '-o json');
    // svc emulator's own --quiet (drop the request log) shares -q with the global flag, so -q is honoured there.
    await refused(['emulator', '--port', '0', '--jq', '.'], '--jq');
    await refused(['worker', 'run', '--environment', 'env_x', '-o', 'yaml'], '-o yaml');
    expect((await svc(['version'], { env: env() })).code).toBe(0);
  });

  it('svc api prints the body as received: -o yaml and -q are exit 2; -o json and --jq still work', async () => {
    await refused(['api', '/v1/agents', '-o', 'yaml'], '-o yaml');
    await refused(['api', '/v1/agents', '-q'], '-q');
    const r = await svc(['api', '/v1/agents', '-o', 'json', '--jq', '.items | length'], { env: env() });
    expect(r.code).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThanOrEqual(0);
  });
});

describe('-q on what has no IDs', () => {
  it('doctor, auth status, config list and config profiles refuse -q and -o id with exit 2, nothing sent', async () => {
    await refused(['doctor', '-q'], '-q');
    await refused(['auth', 'status', '-q'], '-q');
    await refused(['config', 'list', '-o', 'id'], '-o id');
    await refused(['config', 'profiles', '-q'], '-q');
  });

  it('sessions pending -q prints the event_id of each queued input', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 400');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the slow turn');
    const queued = await send(t.emu, s.id, 'queued');
    const r = await svc(['sessions', 'pending', s.id, '-q'], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: `${queued}\n` });
  });
});

describe('the notice of a cut list', () => {
  it('with --all and --limit it names --limit, not --all, as what cut the list', async () => {
    const r = await svc(['sessions', 'events', sid, '--all', '--limit', '1', '-q'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^\d+ more: --limit 1 stopped the listing\n$/);
  });
});

describe('-q prints IDs only', () => {
  it('diff -q leaves out what has no ID yet (a create) instead of printing null', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'a.yaml'), 'kind: Agent\nname: not-yet\nmodel: scripted-1\n');
    const r = await svc(['diff', '-f', 'a.yaml', '-q'], { env: env(), cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('sessions export honours -o json and refuses what it cannot honour', () => {
  it('-o json prints the events array, as --format json does', async () => {
    const r = await svc(['sessions', 'export', sid, '-o', 'json'], { env: env() });
    expect(r.code).toBe(0);
    const events = JSON.parse(r.stdout);
    expect(events.map((e: { type: string }) => e.type)).toContain('user.message');
  });

  it('--jq filters --format json; with a Markdown transcript, -o yaml, -q or --format md -o json it is exit 2 with nothing sent', async () => {
    const r = await svc(['sessions', 'export', sid, '--format', 'json', '--jq', '.[0].type'], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: 'user.message\n' });
    for (const args of [['--jq', '.'], ['-o', 'yaml'], ['-q'], ['--format', 'md', '-o', 'json'], ['--format', 'json', '--jq', '.', '-O', 'x.json']]) {
      const before = await requestCount(t.emu);
      const x = await svc(['sessions', 'export', sid, ...args], { env: env() });
      expect(x.code, args.join(' ')).toBe(2);
      expect(x.stdout).toBe('');
      expect(x.stderr).toMatch(/(--format|-O FILE)/);
      expect(await requestCount(t.emu)).toBe(before);
    }
  });
});

describe('sessions list: --timeout and the watch formats', () => {
  it('--timeout without --watch is exit 2 naming --request-timeout, with nothing sent', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['sessions', 'list', '--timeout', '5'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --timeout after list bounds --watch: for a per-request timeout use --request-timeout/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  const watch = async (extra: string[]) => {
    const stdin = new PassThrough();
    stdin.end();
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await main(['sessions', 'list', '-w', '--interval', '20ms', '--timeout', '200ms', ...extra], {
      stdin,
      stdout,
      stderr,
      env: { SVC_CONFIG_DIR: tempConfigDir(), ...env() },
      cwd: process.cwd(),
    });
    return { code, stdout: stdout.text };
  };

  it('--watch -q prints the ID of each change, as kubectl -w -o name does', async () => {
    const r = await watch(['-q']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toContain(sid);
    expect(r.stdout).not.toContain('{');
  });

  it('--watch -o yaml prints each change as a YAML document', async () => {
    const r = await watch(['-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('---\ntype: ADDED\nobject:\n')).toBe(true);
    expect(r.stdout).toContain(`id: ${sid}`);
  });
});
