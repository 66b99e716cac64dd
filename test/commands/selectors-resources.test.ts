import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
const ids = async (args: string[]) => {
  const r = await run([...args, '-q']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim().split('\n').filter(Boolean).sort();
};

let agentId: string | undefined;
let n = 0;
/** Creates one of each selectable resource through the API, labelled with `metadata`. */
const makers: Record<string, (metadata: Record<string, string>) => Promise<string>> = {
  agents: async (metadata) => (await call(t.emu, 'POST', '/v1/agents', { body: { name: `a${++n}`, model: 'scripted-1', metadata } })).body.id,
  environments: async (metadata) => (await call(t.emu, 'POST', '/v1/environments', { body: { name: `e${++n}`, metadata } })).body.id,
  triggers: async (metadata) => {
    agentId ??= (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'trigger-owner', model: 'scripted-1' } })).body.id;
    const body = { name: `t${++n}`, agent_id: agentId, session_mode: 'new_session', initial_events: [], metadata };
    return (await call(t.emu, 'POST', '/v1/triggers', { body })).body.id;
  },
  'memory-stores': async (metadata) => (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: `m${++n}`, metadata } })).body.id,
};
const path = (group: string) => `/v1/${group}`;

describe('selectors on agents, environments, triggers and memory stores', () => {
  for (const group of Object.keys(makers)) {
    it(`${group} list: -l is applied while paging (the limit counts matches) and the time selectors go to the service as created_at_*`, async () => {
      const make = makers[group];
      const label = `sel-${group}`;
      const infra = await make({ set: label, team: 'infra' });
      const web = await make({ set: label, team: 'web' });
      const bare = await make({ set: label });
      expect(await ids([group, 'list', '-l', `set=${label}`, '--all'])).toEqual([infra, web, bare].sort());
      expect(await ids([group, 'list', '-l', `set=${label},team=infra`, '--all'])).toEqual([infra]);
      expect(await ids([group, 'list', '-l', `set=${label},team!=infra`, '--all'])).toEqual([web, bare].sort());
      expect(await ids([group, 'list', '-l', `set=${label},!team`, '--all'])).toEqual([bare]);
      // Pages of one: the label's matches are found past pages that hold none.
      expect(await ids([group, 'list', '-l', `set=${label},team`, '--limit', '2', '--page-size', '1'])).toEqual([infra, web].sort());
      expect(await ids([group, 'list', '-l', `set=${label}`, '--newer-than', '1h', '--all'])).toEqual([infra, web, bare].sort());
      expect(await ids([group, 'list', '-l', `set=${label}`, '--older-than', '1h', '--all'])).toEqual([]);
      const debug = await run([group, 'list', '--older-than', '2h', '--newer-than', '3d', '--debug', '-q']);
      const line = decodeURIComponent(debug.stderr.split('\n').find((l) => l.includes('GET') && l.includes(path(group)))!);
      expect(line).toMatch(/created_at_lt=\d{4}-\d\d-\d\dT[\d:.]+Z/);
      expect(line).toMatch(/created_at_gt=\d{4}-\d\d-\d\dT[\d:.]+Z/);
      expect(line).not.toContain('selector');
    });
  }

  it('the time selectors select by age: one made later is newer than a bound the earlier one is older than', async () => {
    const early = await makers.environments({ set: 'ages' });
    const createdAt = Date.parse((await call(t.emu, 'GET', `/v1/environments/${early}`)).body.created_at);
    await waitUntil(() => Date.now() - createdAt > 3000, 'the first environment three seconds old', 5000);
    const late = await makers.environments({ set: 'ages' });
    expect(await ids(['environments', 'list', '-l', 'set=ages', '--older-than', '2s', '--all'])).toEqual([early]);
    expect(await ids(['environments', 'list', '-l', 'set=ages', '--newer-than', '2s', '--all'])).toEqual([late]);
  });

  it('archive and delete take selectors: the selection goes through the bulk executor (consent, --dry-run, results, summary)', async () => {
    const a = [await makers.agents({ set: 'bulk-sel' }), await makers.agents({ set: 'bulk-sel' })].sort();
    const keep = await makers.agents({ set: 'bulk-keep' });
    const before = await requestCount(t.emu);
    const refused = await run(['agents', 'archive', '-l', 'set=bulk-sel']);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(/^error: archive 2 agents: pass --yes/);
    const dry = await run(['agents', 'archive', '-l', 'set=bulk-sel', '--dry-run', '-q']);
    expect(dry.stdout.trim().split('\n').sort()).toEqual(a);
    expect(dry.stderr).toBe('dry run: would archive 2 agents; nothing was sent\n');
    // Reads only: the refusal and the dry run listed the selection and wrote nothing.
    for (const id of a) expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.archived_at).toBeNull();
    expect(await requestCount(t.emu)).toBeGreaterThan(before);
    const r = await run(['agents', 'archive', '-l', 'set=bulk-sel', '--yes', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .map((x: any) => x.id)
        .sort(),
    ).toEqual(a);
    expect(r.stderr).toBe('archived 2, unchanged 0, failed 0\n');
    expect((await call(t.emu, 'GET', `/v1/agents/${keep}`)).body.archived_at).toBeNull();
    // Archived ones leave the list, so the same selection now matches nothing.
    const again = await run(['agents', 'archive', '-l', 'set=bulk-sel', '--yes']);
    expect([again.code, again.stderr]).toEqual([0, 'nothing matched\n']);
    const store = await makers['memory-stores']({ set: 'del-sel' });
    const del = await run(['memory-stores', 'delete', '-l', 'set=del-sel', '--newer-than', '1h', '--yes', '-o', 'ndjson']);
    expect(del.code).toBe(0);
    expect(JSON.parse(del.stdout)).toEqual({ id: store, action: 'delete', ok: true });
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}`)).status).toBe(404);
  });

  it('a malformed selector or duration, IDs with selectors, or neither is exit 2 naming the flag, with nothing sent', async () => {
    const before = await requestCount(t.emu);
    for (const [args, named] of [
      [['agents', 'list', '--older-than', '7days'], '--older-than'],
      [['environments', 'list', '--newer-than', '0s'], '--newer-than'],
      [['triggers', 'list', '-l', 'a=b,,c'], '--selector'],
      [['memory-stores', 'archive', '-l', '=x', '--yes'], '--selector'],
      [['triggers', 'delete', 'trig_1', '-l', 'a=b'], 'not both'],
      [['environments', 'archive'], 'give environment IDs'],
      [['agents', 'list', '--interval', '1s'], '--interval'],
      [['agents', 'list', '--timeout', '1s'], '--request-timeout'],
    ] as const) {
      const r = await run([...args]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(named);
    }
    expect(await requestCount(t.emu)).toBe(before);
  });
});
