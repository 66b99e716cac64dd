import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emuEnv, ndjson, svc, tempConfigDir, type SvcResult } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const run = (args: string[], stdin?: string): Promise<SvcResult> => svc(args, { env: emuEnv(t.emu), stdin });
const json = (r: SvcResult): any => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
let agentId: string | undefined;
const agent = async () => (agentId ??= (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'meta-bot', model: 'scripted-1' } })).body.id as string);

describe('--metadata KEY=VALUE on create and update', () => {
  it('sessions create: repeatable pairs (a value may hold "="), merged over the metadata of --data', async () => {
    const s = json(
      await run([
        'sessions',
        'create',
        '--agent',
        await agent(),
        '--data',
        '{"metadata":{"team":"old","keep":"yes"}}',
        '--metadata',
        'team=infra',
        '--metadata',
        'expr=a=b',
        '-o',
        'json',
      ]),
    );
    expect(s.metadata).toEqual({ team: 'infra', keep: 'yes', expr: 'a=b' });
  });

  it('sessions update: KEY=VALUE sets, KEY- removes, the other stored keys are kept', async () => {
    const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: await agent(), metadata: { a: '1', b: '2', c: '3' } } })).body;
    const u = json(await run(['sessions', 'update', s.id, '--metadata', 'a=10', '--metadata', 'b-', '--metadata', 'd=4', '-o', 'json']));
    expect(u.metadata).toEqual({ a: '10', c: '3', d: '4' });
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).body.metadata).toEqual({ a: '10', c: '3', d: '4' });
  });

  it.each([
    ['agents', '/v1/agents', { model: 'scripted-1' }],
    ['environments', '/v1/environments', { config: { type: 'cloud' } }],
    ['vaults', '/v1/vaults', {}],
    ['memory-stores', '/v1/memory-stores', {}],
  ] as const)('%s create and update take --metadata too', async (group, path, body) => {
    const made = json(await run([group, 'create', '--data', JSON.stringify({ name: `meta-${group}`, ...body }), '--metadata', 'owner=ops', '-o', 'json']));
    expect(made.metadata).toEqual({ owner: 'ops' });
    const updated = json(await run([group, 'update', made.id, '--metadata', 'tier=gold', '--metadata', 'owner-', '-o', 'json']));
    expect(updated.metadata).toEqual({ tier: 'gold' });
    expect((await call(t.emu, 'GET', `${path}/${made.id}`)).body.metadata).toEqual({ tier: 'gold' });
  });

  it('a bad pair is exit 2 naming it, before any request', async () => {
    const a = await agent();
    const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a } })).body;
    const before = await requestCount(t.emu);
    for (const [args, named] of [
      [['sessions', 'create', '--agent', a, '--metadata', 'novalue'], '--metadata takes KEY=VALUE (got "novalue")'],
      [['sessions', 'create', '--agent', a, '--metadata', '=v'], 'has an empty key'],
      [['sessions', 'create', '--agent', a, '--metadata', 'gone-'], '--metadata takes KEY=VALUE (got "gone-")'],
      [['sessions', 'update', s.id, '--metadata', 'x=1', '--metadata', 'x-'], 'both sets and removes "x"'],
      [['sessions', 'update', s.id, '--metadata', '-'], 'or KEY- (to remove KEY)'],
      [['run', '--agent', a, '--message', 'hi', '--metadata', 'nope'], '--metadata takes KEY=VALUE'],
      [['run', '--session', s.id, '--message', 'hi', '--title', 'T'], '--title applies to a new session'],
      [['run', '--session', s.id, '--message', 'hi', '--metadata', 'k=v'], '--metadata applies to a new session'],
    ] as const) {
      const r = await run([...args]);
      expect([r.code, r.stdout], r.stderr).toEqual([2, '']);
      expect(r.stderr).toContain(named);
    }
    expect(await requestCount(t.emu)).toBe(before);
  });
});

describe('run --title and --metadata', () => {
  it('run gives the new session its title and metadata', async () => {
    const r = await run(['run', '--agent', await agent(), '--message', 'hello', '--title', 'Nightly', '--metadata', 'job=nightly', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const s = (await call(t.emu, 'GET', `/v1/sessions/${r.stdout.trim()}`)).body;
    expect([s.title, s.metadata]).toEqual(['Nightly', { job: 'nightly' }]);
  });

  it("run --parallel: the flags apply to every line, a line's own title and metadata win", async () => {
    const file = join(tempConfigDir(), 'tasks.ndjson');
    writeFileSync(file, '"plain"\n{"message":"own","title":"Own","metadata":{"job":"mine","line":"2"}}\n');
    const r = await run([
      'run',
      '--agent',
      await agent(),
      '--parallel',
      '2',
      '--message-file',
      file,
      '--title',
      'Batch',
      '--metadata',
      'job=batch',
      '--metadata',
      'team=qa',
      '-o',
      'ndjson',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const byLine = ndjson(r.stdout).sort((x, y) => x.line - y.line);
    const sessions = await Promise.all(byLine.map(async (x) => (await call(t.emu, 'GET', `/v1/sessions/${x.session_id}`)).body));
    expect(sessions.map((s) => [s.title, s.metadata])).toEqual([
      ['Batch', { job: 'batch', team: 'qa' }],
      ['Own', { job: 'mine', team: 'qa', line: '2' }],
    ]);
  });
});
