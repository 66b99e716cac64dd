import { describe, expect, it } from 'vitest';
import { emuEnv, startSvc, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { parsePath, pathValue, sortByPath } from '../../src/output/path';

const t = useEmulator({ modelStepMs: 5 });
const env = () => ({ ...emuEnv(t.emu), NO_COLOR: '1' });
const tty = { stdoutTTY: true, columns: 400 };

let agentId: string | undefined;
let envId: string | undefined;
async function session(label: string, extra: Record<string, unknown> = {}): Promise<any> {
  agentId ??= (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'cols', model: 'scripted-1' } })).body.id;
  envId ??= (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'cols-env', config: { type: 'cloud' } } })).body.id;
  const body = { agent_id: agentId, environment_id: envId, title: `t-${label}`, ...extra, metadata: { set: label, ...(extra.metadata as object) } };
  return (await call(t.emu, 'POST', '/v1/sessions', { body })).body;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('-o wide', () => {
  it('adds the session columns that did not fit the default table: environment, labels, created, archived; STATUS stays the derived state', async () => {
    const s = await session('wide', { metadata: { team: 'infra' } });
    const plain = await svc(['sessions', 'list', '-l', 'set=wide'], { env: env(), ...tty });
    expect(lines(plain.stdout)[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+AGENT\s+EPOCH\s+UPDATED$/);
    const wide = await svc(['sessions', 'list', '-l', 'set=wide', '-o', 'wide'], { env: env(), ...tty });
    expect(wide.code).toBe(0);
    const [head, row] = lines(wide.stdout);
    expect(head).toMatch(/^ID\s+TITLE\s+STATUS\s+AGENT\s+EPOCH\s+UPDATED\s+ENVIRONMENT\s+LABELS\s+CREATED\s+ARCHIVED$/);
    expect(row).toContain(envId);
    expect(row).toContain('set=wide,team=infra');
    expect(row).toMatch(new RegExp(`^${s.id}\\s+t-wide\\s+idle\\s`));
  });

  it('on a get prints the object as one row of every column', async () => {
    const s = await session('wide-get');
    const r = await svc(['sessions', 'get', s.id, '-o', 'wide'], { env: env(), ...tty });
    expect(r.code).toBe(0);
    const [head, row] = lines(r.stdout);
    expect(head).toMatch(/^ID\s+TITLE\s+STATUS\s.*ENVIRONMENT\s+LABELS\s+CREATED\s+ARCHIVED$/);
    expect(row).toMatch(new RegExp(`^${s.id}\\s+t-wide-get\\s+idle\\s.*${envId}\\s+set=wide-get\\s`));
  });
});

describe('-o custom-columns', () => {
  it("prints the user's columns from dotted paths with [n], <none> where a path leads nowhere, in the service's values", async () => {
    const s = await session('custom', { resources: [] });
    const spec = 'ID:.id,TEAM:.metadata.set,FIRST:.resources[0].type,STATUS:.status';
    const r = await svc(['sessions', 'list', '-l', 'set=custom', '-o', `custom-columns=${spec}`], { env: env(), ...tty });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((l) => l.split(/\s+/))).toEqual([
      ['ID', 'TEAM', 'FIRST', 'STATUS'],
      [s.id, 'custom', '<none>', 'idle'],
    ]);
  });

  it('a member every object inherits (.constructor, .toString, .__proto__ …) is one it does not have: <none> (issue 45 item 5)', async () => {
    const s = await session('custom-proto');
    const paths = [
      '.constructor',
      '.toString',
      '.hasOwnProperty',
      '.valueOf',
      '.__proto__',
      '.__proto__.constructor',
      '.metadata.constructor',
      '.resources.length',
    ];
    const spec = ['ID:.id', ...paths.map((p, i) => `C${i}:${p}`)].join(',');
    const r = await svc(['sessions', 'get', s.id, '-o', `custom-columns=${spec}`, '--no-headers'], { env: env() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.trimEnd().split(/\s+/)).toEqual([s.id, ...paths.map(() => '<none>')]);
    expect(pathValue({ a: 1 }, parsePath('.constructor', 'x'))).toBeUndefined();
    expect(pathValue(JSON.parse('{"__proto__":{"x":"own"}}'), parsePath('.__proto__.x', 'x'))).toBe('own');
  });

  it('on a get prints one row, and --no-headers drops the header line even when piped', async () => {
    const s = await session('custom-get');
    const r = await svc(['sessions', 'get', s.id, '-o', 'custom-columns=ID:.id,AGENT:{.agent_id}', '--no-headers'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split(/\s+/)).toEqual([s.id, agentId]);
  });

  it.each([
    ['custom-columns=', 'needs columns'],
    ['custom-columns=ID', 'column 1 ("ID") is not HEADER:.path'],
    ['custom-columns=ID:.id,:.name', 'column 2'],
    ['custom-columns=ID:.a..b', 'custom-columns ID: ".a..b" is not a path'],
    ['custom-columns=X:.items[x]', 'is not a path'],
  ])('a bad spec (%s) is exit 2 naming what is wrong, before any request', async (spec, message) => {
    const before = await requestCount(t.emu);
    const r = await svc(['sessions', 'list', '-o', spec], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(await requestCount(t.emu)).toBe(before);
  });
});

describe('--sort-by', () => {
  it('sorts what was fetched by a path: numbers by size, a missing value last, in a table and in JSON', async () => {
    // A number only the JSON carries: metadata values are strings, so sort on the epoch-free title and a label.
    const a = await session('sort', { title: 'b', metadata: { rank: '2' } });
    const b = await session('sort', { title: 'c', metadata: { rank: '1' } });
    const c = await session('sort', { title: 'a' });
    const table = await svc(['sessions', 'list', '-l', 'set=sort', '--sort-by', '.metadata.rank', '-o', 'custom-columns=ID:.id', '--no-headers'], {
      env: env(),
    });
    expect(lines(table.stdout)).toEqual([b.id, a.id, c.id]);
    const json = await svc(['sessions', 'list', '-l', 'set=sort', '--sort-by', 'title', '-o', 'json'], { env: env() });
    expect(JSON.parse(json.stdout).map((s: any) => s.id)).toEqual([c.id, a.id, b.id]);
  });

  it('compares numbers as numbers and keeps the order of ties', () => {
    const rows = [{ n: 10, k: 'x' }, { n: 9 }, { k: 'y' }, { n: 10, k: 'z' }];
    expect(sortByPath(rows, parsePath('.n', 'test'))).toEqual([{ n: 9 }, { n: 10, k: 'x' }, { n: 10, k: 'z' }, { k: 'y' }]);
    expect(pathValue({ a: [{ b: 1 }] }, parsePath('.a[0].b', 'test'))).toBe(1);
    expect(pathValue({ a: { 0: 1 } }, parsePath('.a[0]', 'test'))).toBeUndefined();
  });

  it('a path that matches no row is exit 2 naming it, with nothing printed (as kubectl refuses it)', async () => {
    await session('nope');
    const r = await svc(['sessions', 'list', '-l', 'set=nope', '--sort-by', '.nope.deeper[0]'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: --sort-by: no row has a value at .nope.deeper[0] (check the path against -o json)');
    expect(r.stdout).toBe('');
    // No rows at all: nothing to check the path against, so nothing to refuse.
    const none = await svc(['sessions', 'list', '-l', 'set=none-such', '--sort-by', '.nope'], { env: env() });
    expect(none.code).toBe(0);
    expect(() => sortByPath([{ a: 1 }, { b: 2 }], parsePath('.b', 'test'))).not.toThrow();
  });

  it('a bad path, or --sort-by with --watch, is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const bad = await svc(['agents', 'list', '--sort-by', '.a b'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort-by: ".a b" is not a path');
    const watched = await svc(['sessions', 'list', '-w', '--sort-by', '.id'], { env: env() });
    expect(watched.code).toBe(2);
    expect(watched.stderr).toContain('--sort-by sorts a listing');
    expect(await requestCount(t.emu)).toBe(before);
  });
});

describe('--no-headers', () => {
  it('prints a table without its header line, a table even when piped', async () => {
    const s = await session('nohead');
    const r = await svc(['sessions', 'list', '-l', 'set=nohead', '--no-headers'], { env: env() });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toHaveLength(1);
    expect(r.stdout).toMatch(new RegExp(`^${s.id}\\s+t-nohead\\s+idle\\s`));
  });

  it('with a format that has no header line, or on a verb that prints text, is exit 2', async () => {
    const json = await svc(['agents', 'list', '-o', 'json', '--no-headers'], { env: env() });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--no-headers drops a table');
    const text = await svc(['completion', 'bash', '--no-headers'], { env: env() });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('--no-headers does not apply to svc completion');
  });
});

describe('-w rows', () => {
  it('honour -o custom-columns and --no-headers: EVENT, then the chosen columns, no header', async () => {
    const s = await session('watchcols');
    const w = startSvc(
      t.emu,
      ['sessions', 'list', '-w', '-l', 'set=watchcols', '--interval', '20ms', '-o', 'custom-columns=ID:.id,ENV:.environment_id', '--no-headers'],
      {
        stdoutTTY: true,
      },
    );
    await waitUntil(() => w.stdout.text.includes('\n'), 'the first row');
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
    expect(lines(w.stdout.text).map((l) => l.split(/\s+/))).toEqual([['ADDED', s.id, envId]]);
  });

  it('honour -o wide: the default row, the wide columns, then AGE', async () => {
    const s = await session('watchwide', { metadata: { team: 'w' } });
    const w = startSvc(t.emu, ['sessions', 'list', '-w', '-l', 'set=watchwide', '--interval', '20ms', '-o', 'wide'], { stdoutTTY: true });
    await waitUntil(() => lines(w.stdout.text).length >= 2, 'the header and the first row');
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
    const [head, row] = lines(w.stdout.text);
    expect(head).toMatch(/^EVENT\s+ID\s+STATUS\s+TITLE\s+AGENT\s+ENVIRONMENT\s+LABELS\s+CREATED\s+ARCHIVED\s+AGE$/);
    expect(row).toContain(s.id);
    expect(row).toContain('set=watchwide,team=w');
  });
});
