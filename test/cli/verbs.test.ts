import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { agents } from '../../src/api/resources';
import { parseArchive, runArchive } from '../../src/cli/verbs/archive';
import { parseCreate, runCreate } from '../../src/cli/verbs/create';
import { parseDelete, runDelete } from '../../src/cli/verbs/delete';
import { leading, parseGet, runGet } from '../../src/cli/verbs/get';
import { parseList, runList, TIME_FILTERS } from '../../src/cli/verbs/list';
import { resourceSpec } from '../../src/cli/verbs/spec';
import { parseUpdate, runUpdate } from '../../src/cli/verbs/update';
import { AGENT_COLUMNS } from '../../src/commands/agents/columns';
import { Ctx } from '../../src/runtime/context';
import { UsageError } from '../../src/runtime/errors';
import { Capture, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const AGENTS = resourceSpec(agents, AGENT_COLUMNS);
const FLAGS = [
  { flags: '--name <name>', description: 'agent name', field: 'name' },
  { flags: '--model <model>', description: 'model ID', field: 'model' },
];

/** A context over the emulator with captured streams: what a run function gets in a real command. */
function emulatorCtx(): { ctx: Ctx; stdout: Capture; stderr: Capture } {
  const stdout = new Capture();
  const stderr = new Capture();
  const stdin = new PassThrough();
  stdin.end();
  const env = { SVC_CONFIG_DIR: tempConfigDir(), SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey };
  return { ctx: new Ctx({ stdin, stdout, stderr, env, cwd: process.cwd() }, { output: 'json' }), stdout, stderr };
}

describe('parse steps: flags in, typed options out, nothing sent', () => {
  it('parseList turns filters and list flags into a query and paging; a bad --limit is a UsageError', () => {
    const o = parseList(AGENTS, TIME_FILTERS, { createdAfter: '2026-01-01T00:00:00Z', limit: '5', all: true });
    expect(o.query).toEqual({ created_at_gt: '2026-01-01T00:00:00Z' });
    expect(o.page).toEqual({ limit: 5, pageSize: undefined, pageToken: undefined, all: true });
    expect(() => parseList(AGENTS, [], { limit: '0' })).toThrow(UsageError);
    expect(() => parseList(AGENTS, [], { pageSize: '1001' })).toThrow(/--page-size/);
  });

  it('parseCreate keeps --data to read later, parses the field flags, names each required field by its flag, and makes one key', () => {
    const o = parseCreate(AGENTS, { name: 'x', data: '@agent.yaml', idempotencyKey: 'k-1' }, { flags: FLAGS, required: ['name', 'model'] });
    expect(o.body).toMatchObject({ data: '@agent.yaml', fields: { name: 'x' } });
    expect(o.required).toEqual([
      { field: 'name', flag: '--name' },
      { field: 'model', flag: '--model' },
    ]);
    expect(o.idempotencyKey).toBe('k-1');
    expect(() => parseCreate(AGENTS, { idempotencyKey: 'k'.repeat(1000) })).toThrow(/--idempotency-key is over/);
  });

  it('a required field set by a flag with two names is named by the first (--agent, not --agent-id)', () => {
    const o = parseCreate(AGENTS, {}, { flags: [{ flags: '--agent, --agent-id <id>', description: '', field: 'agent_id' }], required: ['agent_id'] });
    expect(o.required).toEqual([{ field: 'agent_id', flag: '--agent' }]);
  });

  it('parseGet, parseUpdate, parseDelete and parseArchive take the ID argument', () => {
    expect(parseGet(AGENTS, ['ag_1'], { version: '2' }, ['name'])).toMatchObject({ id: 'ag_1', version: '2', lead: ['name'] });
    expect(parseUpdate(AGENTS, ['ag_1'], { name: 'y' }, { flags: FLAGS })).toMatchObject({ id: 'ag_1', body: { fields: { name: 'y' } } });
    expect(parseDelete(AGENTS, ['ag_1'], {})).toMatchObject({ resource: AGENTS, ids: ['ag_1'], stdin: false, yes: false, concurrency: 4 });
    expect(parseArchive(AGENTS, ['-'], { yes: true, concurrency: '8' })).toMatchObject({ resource: AGENTS, stdin: true, yes: true, concurrency: 8 });
    expect(() => parseArchive(AGENTS, [], {})).toThrow(/give agent IDs, or -/);
    expect(() => parseDelete(AGENTS, ['ag_1'], { concurrency: '0' })).toThrow(/--concurrency/);
  });

  it('leading puts the named members first and keeps the rest in the order sent', () => {
    expect(Object.keys(leading({ id: 'a', version: 1, model: 'm', name: 'n', z: 0 }, ['name', 'model']))).toEqual(['name', 'model', 'id', 'version', 'z']);
  });
});

describe('run functions: typed options in, the work done against the emulator', () => {
  it('runCreate sends the body with the parsed key; runGet reads it back; runList lists it', async () => {
    const { ctx, stdout } = emulatorCtx();
    await runCreate(ctx, parseCreate(AGENTS, { name: 'typed', model: 'm', idempotencyKey: 'typed-key' }, { flags: FLAGS, required: ['name'] }));
    const created = JSON.parse(stdout.text);
    expect(created).toMatchObject({ name: 'typed', model: expect.anything() });

    const got = emulatorCtx();
    await runGet(got.ctx, parseGet(AGENTS, [created.id], {}));
    expect(JSON.parse(got.stdout.text).id).toBe(created.id);

    const listed = emulatorCtx();
    await runList(listed.ctx, parseList(AGENTS, [], { all: true }));
    expect(JSON.parse(listed.stdout.text).map((a: { id: string }) => a.id)).toContain(created.id);
  });

  it('runCreate without a required field throws a UsageError naming the flag, with nothing sent', async () => {
    const { ctx } = emulatorCtx();
    const before = await requestCount(t.emu);
    await expect(runCreate(ctx, parseCreate(AGENTS, { model: 'm' }, { flags: FLAGS, required: ['name'] }))).rejects.toThrow(
      'agent name is required (--name or --data)',
    );
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('runUpdate patches, runArchive archives, runDelete deletes', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'gone', model: 'm' } })).body.id;
    const up = emulatorCtx();
    await runUpdate(up.ctx, parseUpdate(AGENTS, [id], { name: 'renamed' }, { flags: FLAGS }));
    expect(JSON.parse(up.stdout.text).name).toBe('renamed');

    const ar = emulatorCtx();
    await runArchive(ar.ctx, parseArchive(AGENTS, [id], {}));
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.archived_at).toBeTruthy();

    const del = emulatorCtx();
    await runDelete(del.ctx, parseDelete(AGENTS, [id], {}));
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).status).toBe(404);
  });
});
