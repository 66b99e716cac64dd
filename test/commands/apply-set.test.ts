// Rules proved here: R-CONF-22, R-IDEM-12, R-IDEM-14, R-IDEM-15
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { call } from '../helpers/emulator';

const SECRET = 'tok-very-secret-value';

const AGENTS = `kind: Agent
name: reviewer
model: claude-sonnet-4-5
system: Review code briefly.
skills:
  - skill: review-skill
---
kind: Agent
name: triager
model: claude-sonnet-4-5
system: Sort incoming issues.
`;
const PLATFORM = `kind: Environment
name: ci
config:
  type: cloud
---
kind: Vault
name: ops
description: tokens for the agents
credentials:
  - name: deploy-token
    type: static_bearer
    value_from: {env: DEPLOY_TOKEN}
---
kind: MemoryStore
name: notes
description: what the agents learn
---
kind: Skill
name: review-skill
path: ../skills/review
`;
const TRIGGERS = `kind: Trigger
name: nightly
agent: reviewer
environment: ci
session_mode: new_session
schedule: {type: cron, expression: "0 2 * * *", timezone: UTC}
initial_events:
  - type: user.message
    data:
      content: [{type: text, text: Review the day's changes}]
`;

let emu: Emulator;
let log: string[];
let root: string;

beforeEach(async () => {
  log = [];
  emu = await startEmulator({ port: 0, log: (l) => log.push(l) });
  root = tempConfigDir();
  // A repository root: the default set name is the folder's path from it, `config`.
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, 'skills', 'review'), { recursive: true });
  writeFileSync(join(root, 'config', 'agents.yaml'), AGENTS);
  writeFileSync(join(root, 'config', 'platform.yaml'), PLATFORM);
  writeFileSync(join(root, 'config', 'triggers.yaml'), TRIGGERS);
  writeFileSync(join(root, 'skills', 'review', 'SKILL.md'), '# Review\nRead the diff, comment briefly.\n');
});

afterEach(async () => {
  await emu.close();
});

const edit = (file: string, from: string | RegExp, to: string) => {
  const p = join(root, file);
  writeFileSync(p, readFileSync(p, 'utf8').replace(from, to));
};

function run(args: string[], o: SvcOptions = {}) {
  return svc(args, { cwd: root, columns: 200, ...o, env: { ...emuEnv(emu), NO_COLOR: '1', DEPLOY_TOKEN: SECRET, ...o.env } });
}
const apply = (extra: string[] = [], o: SvcOptions = {}) => run(['apply', '-f', 'config', '-o', 'table', ...extra], o);

const stats = async (): Promise<Record<string, number>> => (await call(emu, 'GET', '/_emulator/stats')).body;
/** The writes the emulator answered while `fn` ran, as `METHOD /path`. */
async function writesDuring<T>(fn: () => Promise<T>): Promise<{ result: T; writes: string[] }> {
  const from = log.length;
  const result = await fn();
  return {
    result,
    writes: log
      .slice(from)
      .map((l) => l.split(' ').slice(0, 2).join(' '))
      .filter((r) => !r.startsWith('GET ')),
  };
}
const list = async (path: string) => (await call(emu, 'GET', `${path}?page_size=1000`)).body.items as Array<Record<string, any>>;
const named = async (path: string, name: string) => (await list(path)).filter((x) => x.name === name);

describe('svc apply -f FOLDER', () => {
  it('applies a folder of 3 files and 7 documents from scratch: references by name, dependency order, every resource labelled with the set', async () => {
    const r = await apply();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/plan for set "config": 7 to create, 0 to update, 0 unchanged\napplied: 7 created\n$/);
    const [skill] = await named('/v1/skills', 'review-skill');
    const [reviewer] = await named('/v1/agents', 'reviewer');
    const [env] = await named('/v1/environments', 'ci');
    const [vault] = await named('/v1/vaults', 'ops');
    const [trigger] = await named('/v1/triggers', 'nightly');
    const [store] = await named('/v1/memory-stores', 'notes');
    expect(reviewer.skills).toEqual([{ skill_id: skill.id, version: 'latest' }]);
    expect(trigger).toMatchObject({ agent_id: reviewer.id, environment_id: env.id });
    for (const o of [skill, reviewer, env, vault, trigger, store, ...(await named('/v1/agents', 'triager'))])
      expect(o.metadata).toEqual({ 'svc-apply-set': 'config' });
    const creds = (await call(emu, 'GET', `/v1/vaults/${vault.id}/credentials`)).body.items;
    expect(creds).toMatchObject([{ name: 'deploy-token', type: 'static_bearer' }]);
    // The skill precedes the agent that names it, the agent and environment the trigger.
    const order = log.filter((l) => l.startsWith('POST ')).map((l) => l.split(' ')[1]);
    expect(order.indexOf('/v1/skills')).toBeLessThan(order.indexOf('/v1/agents'));
    expect(order.lastIndexOf('/v1/agents')).toBeLessThan(order.indexOf('/v1/triggers'));
    expect(order.indexOf('/v1/environments')).toBeLessThan(order.indexOf('/v1/triggers'));
    expect(r.stdout).toContain('note: credential deploy-token: value from env DEPLOY_TOKEN, write-only, sent on create');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('a second apply sends zero writes and prints every document as unchanged', async () => {
    expect((await apply()).code).toBe(0);
    const before = await stats();
    const r = await apply();
    const after = await stats();
    expect(r.code).toBe(0);
    expect(after.writes).toBe(before.writes);
    expect(after.requests).toBeGreaterThan(before.requests);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('= '))).toHaveLength(7);
    expect(r.stdout).toContain('plan for set "config": 0 to create, 0 to update, 7 unchanged\napplied: nothing to change\n');
  });

  it('changing one field updates exactly that resource, with a field-level difference in the plan', async () => {
    expect((await apply()).code).toBe(0);
    const [triager] = await named('/v1/agents', 'triager');
    edit('config/agents.yaml', 'Sort incoming issues.', 'Sort and label incoming issues.');
    const { result: r, writes } = await writesDuring(() => apply());
    expect(r.code).toBe(0);
    expect(writes).toEqual([`PATCH /v1/agents/${triager.id}`]);
    expect(r.stdout).toContain(`~ Agent triager (${triager.id})\n    ~ system: "Sort incoming issues." → "Sort and label incoming issues."\n`);
    expect((await call(emu, 'GET', `/v1/agents/${triager.id}`)).body.system).toBe('Sort and label incoming issues.');
  });

  it('removing a document and --prune --yes archives exactly it; without --yes and a terminal it asks for --yes and sends nothing', async () => {
    expect((await apply()).code).toBe(0);
    const [store] = await named('/v1/memory-stores', 'notes');
    edit('config/platform.yaml', /---\nkind: MemoryStore\nname: notes\ndescription: what the agents learn\n/, '');
    const { result: refused, writes: none } = await writesDuring(() => apply(['--prune']));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: the plan archives 1 resource of set "config" that the files no longer hold: pass --yes/);
    expect(none).toEqual([]);
    const { result: r, writes } = await writesDuring(() => apply(['--prune', '--yes']));
    expect(r.code).toBe(0);
    expect(writes).toEqual([`POST /v1/memory-stores/${store.id}/archive`]);
    expect(r.stdout).toContain(`- MemoryStore notes (${store.id}): archive, no longer in the files of set "config"\n`);
    expect((await call(emu, 'GET', `/v1/memory-stores/${store.id}`)).body.archived_at).toBeTruthy();
  });

  it('--prune never touches resources without the set label, nor those of another set', async () => {
    const stranger = (await call(emu, 'POST', '/v1/environments', { body: { name: 'hand-made' } })).body.id;
    const other = (await call(emu, 'POST', '/v1/environments', { body: { name: 'other-set', metadata: { 'svc-apply-set': 'elsewhere' } } })).body.id;
    expect((await apply()).code).toBe(0);
    const { result: r, writes } = await writesDuring(() => apply(['--prune', '--yes']));
    expect(r.code).toBe(0);
    expect(writes).toEqual([]);
    for (const id of [stranger, other]) expect((await call(emu, 'GET', `/v1/environments/${id}`)).body.archived_at).toBeNull();
  });

  it('an unlabelled resource with a clashing name is refused: exit 7 naming both, before any write', async () => {
    const theirs = (await call(emu, 'POST', '/v1/environments', { body: { name: 'ci' } })).body.id;
    const { result: r, writes } = await writesDuring(() => apply());
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: config/platform\\.yaml document 1 \\(line 1\\): Environment "ci" clashes with environment ${theirs} "ci", which carries no set label`,
      ),
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(writes).toEqual([]);
  });

  it('diff exits 1 while something would change and 0 once applied, and never writes', async () => {
    const { result: before, writes: w1 } = await writesDuring(() => run(['diff', '-f', 'config', '-o', 'table']));
    expect(before.code).toBe(1);
    expect(before.stderr).toBe('');
    expect(before.stdout).toContain('+ Agent reviewer\n');
    expect(w1).toEqual([]);
    expect((await apply()).code).toBe(0);
    const { result: after, writes: w2 } = await writesDuring(() => run(['diff', '-f', 'config']));
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).map((e: { action: string }) => e.action)).toEqual(Array(7).fill('unchanged'));
    expect(w2).toEqual([]);
  });

  it('diff needs no secret: value_from is read only when a write will send it', async () => {
    const r = await run(['diff', '-f', 'config'], { env: { DEPLOY_TOKEN: undefined } });
    expect(r.code).toBe(1);
    const refused = await writesDuring(() => apply([], { env: { DEPLOY_TOKEN: undefined } }));
    expect(refused.result.code).toBe(2);
    expect(refused.result.stderr).toMatch(/^error: config\/platform\.yaml document 2 \(line 6\): credentials\[0\]: value_from env DEPLOY_TOKEN is not set\n$/);
    expect(refused.writes).toEqual([]);
  });

  it('R-IDEM-15 a 500 after the fourth write stops the run, says what was and was not applied, and a re-run converges with no duplicate', async () => {
    await call(emu, 'POST', '/_emulator/faults', { body: { fail_write_every: 4 } });
    const first = await apply(['--max-retries', '0']);
    expect(first.code).toBe(9);
    const lines = first.stderr.trim().split('\n');
    expect(lines[0]).toBe('applied: + Skill review-skill, + Agent reviewer, + Agent triager');
    expect(lines[1]).toMatch(
      /^not applied: \+ Environment ci, \+ Vault ops, \+ credential deploy-token of Vault ops, \+ MemoryStore notes, \+ Trigger nightly$/,
    );
    expect(lines[2]).toMatch(/^note: "\+ Environment ci" got no clear answer and may have been applied; run apply again/);
    expect(lines[3]).toMatch(/^error: internal error after the write was applied \(injected\)/);
    await call(emu, 'POST', '/_emulator/faults', { body: {} });
    const again = await apply();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/= Environment ci \(\S+\)\n/);
    expect(again.stdout).toContain('plan for set "config": 3 to create, 0 to update, 4 unchanged');
    for (const [path, name] of [
      ['/v1/skills', 'review-skill'],
      ['/v1/agents', 'reviewer'],
      ['/v1/agents', 'triager'],
      ['/v1/environments', 'ci'],
      ['/v1/vaults', 'ops'],
      ['/v1/memory-stores', 'notes'],
      ['/v1/triggers', 'nightly'],
    ]) {
      expect(await named(path, name)).toHaveLength(1);
    }
  });

  it('R-IDEM-12 R-IDEM-14 a create keeps one fresh Idempotency-Key across its retries: a 500 after applying is replayed, not created twice', async () => {
    await call(emu, 'POST', '/_emulator/faults', { body: { fail_write_every: 2 } });
    const r = await apply([], { sleep: async () => {} });
    expect(r.code).toBe(0);
    expect((await stats()).idempotent_replays).toBeGreaterThanOrEqual(3);
    expect(await named('/v1/agents', 'reviewer')).toHaveLength(1);
    expect(await named('/v1/agents', 'triager')).toHaveLength(1);
  });

  it("a skill publishes a new version only when its folder's content changes", async () => {
    expect((await apply()).code).toBe(0);
    const [skill] = await named('/v1/skills', 'review-skill');
    writeFileSync(join(root, 'skills', 'review', 'SKILL.md'), '# Review\nRead the diff, comment thoroughly.\n');
    const { result: r, writes } = await writesDuring(() => apply());
    expect(r.code).toBe(0);
    expect(writes).toEqual([`POST /v1/skills/${skill.id}/versions`]);
    expect(r.stdout).toContain('note: publishes version 2 (1 files)');
    const { writes: none } = await writesDuring(() => apply());
    expect(none).toEqual([]);
  });

  it('write-only credential values are sent again only with --update-secrets, and never printed', async () => {
    expect((await apply()).code).toBe(0);
    const [vault] = await named('/v1/vaults', 'ops');
    const [cred] = (await call(emu, 'GET', `/v1/vaults/${vault.id}/credentials`)).body.items;
    const { result: r, writes } = await writesDuring(() => apply(['--update-secrets', '--debug']));
    expect(r.code).toBe(0);
    expect(writes).toEqual([`PATCH /v1/vaults/${vault.id}/credentials/${cred.id}`]);
    expect(r.stdout).toContain('~ credentials.deploy-token.value: "***" → "***"');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it.each([
    [
      'unknown kind',
      'kind: Robot\nname: r2\n',
      /^error: bad\.yaml \(line 1\): unknown kind "Robot" \(one of Agent, Environment, Trigger, Vault, MemoryStore, Skill\)$/,
    ],
    ['missing name', 'kind: Environment\ndescription: nameless\n', /^error: bad\.yaml \(line 1\) needs a "name"/],
    ['unknown field', 'kind: Agent\nname: a\nmodel: m\nmodle: typo\n', /^error: bad\.yaml \(line 1\): unknown field "modle" in Agent "a"/],
    ['YAML that does not parse', 'kind: Agent\nname: a\nmodel: [unclosed\n', /^error: bad\.yaml line \d+: not valid YAML/],
    [
      'a literal credential value',
      'kind: Vault\nname: v\ncredentials:\n  - {name: t, type: static_bearer, value: plain}\n',
      /credentials\[0\]\.value: secrets never live in the files/,
    ],
    [
      'a reference cycle',
      'kind: Agent\nname: a\nmodel: m\nroster: [{agent: b}]\n---\nkind: Agent\nname: b\nmodel: m\nroster: [{agent: a}]\n',
      /reference cycle: Agent "a" → Agent "b" → Agent "a"/,
    ],
  ])('refuses %s with one line and exit 2 before any request', async (_what, text, message) => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'bad.yaml'), text);
    const before = (await stats()).requests;
    const r = await run(['apply', '-f', 'bad.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
    expect((await stats()).requests).toBe(before);
  });

  it('refuses the same kind and name twice, naming both places, before any request', async () => {
    writeFileSync(join(root, 'config', 'zz-more.yaml'), 'kind: Environment\nname: ci\n');
    const before = (await stats()).requests;
    const r = await apply();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: config/zz-more.yaml (line 1): Environment "ci" is already defined in config/platform.yaml document 1 (line 1)\n');
    expect((await stats()).requests).toBe(before);
  });

  it('a reference to a name neither in the files nor in the project is exit 2 before any write; one in the project is used', async () => {
    rmSync(join(root, 'config', 'agents.yaml'));
    const { result: r, writes } = await writesDuring(() => apply());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: config\/triggers\.yaml \(line 1\): Trigger "nightly" names Agent "reviewer", which is neither in the files nor in the project\n$/,
    );
    expect(writes).toEqual([]);
    const existing = (await call(emu, 'POST', '/v1/agents', { body: { name: 'reviewer', model: 'm' } })).body.id;
    expect((await apply()).code).toBe(0);
    expect((await named('/v1/triggers', 'nightly'))[0].agent_id).toBe(existing);
    expect((await call(emu, 'GET', `/v1/agents/${existing}`)).body.metadata).toEqual({});
  });

  it("--dry-run prints the plan and sends no write; JSON output lists each document's action", async () => {
    const { result: r, writes } = await writesDuring(() => run(['apply', '-f', 'config', '--dry-run', '-o', 'json']));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(7);
    expect(out[0]).toMatchObject({ kind: 'Skill', name: 'review-skill', action: 'created', id: null, dry_run: true });
    expect(writes).toEqual([]);
  });
});

describe('svc apply --prune on a terminal', () => {
  it('asks before archiving and sends nothing when the answer is no', async () => {
    expect((await apply()).code).toBe(0);
    const [store] = await named('/v1/memory-stores', 'notes');
    edit('config/platform.yaml', /---\nkind: MemoryStore\nname: notes\ndescription: what the agents learn\n/, '');
    const { result: no, writes: none } = await writesDuring(() => apply(['--prune'], { stdinTTY: true, stdin: 'n\n' }));
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('Archive 1 resource of set "config" that the files no longer hold? [y/N]');
    expect(none).toEqual([]);
    const { result: yes, writes } = await writesDuring(() => apply(['--prune'], { stdinTTY: true, stdin: 'y\n' }));
    expect(yes.code).toBe(0);
    expect(writes).toEqual([`POST /v1/memory-stores/${store.id}/archive`]);
  });
});

describe('svc apply: MCP headers from value_from', () => {
  it('R-CONF-22 sends a header value read from the environment on create, masks it in the plan, and compares it never', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'agent.yaml'),
      'kind: Agent\nname: mcp-user\nmodel: m\nmcp_servers:\n  - {type: url, name: gh, url: "https://mcp.example", headers: {Authorization: {value_from: {env: GH_HEADER}}}}\n',
    );
    const go = (o: SvcOptions = {}) =>
      run(['apply', '-f', 'agent.yaml', '-o', 'table', '--debug'], { cwd: dir, ...o, env: { GH_HEADER: 'Bearer gh-very-secret', ...o.env } });
    const missing = await go({ env: { GH_HEADER: undefined } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/mcp_servers\[0\]\.headers\["Authorization"\]: value_from env GH_HEADER is not set/);
    const created = await go();
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('+ mcp_servers: [{"type":"url","name":"gh","url":"https://mcp.example","headers":{"Authorization":"***"}}]');
    const [agent] = await named('/v1/agents', 'mcp-user');
    // What the service stored, read from the emulator's own record: the API never returns headers.
    expect(Object.values(emu.collection('agents', 'agent', 'agent').get(agent.id)!._mcp_headers)).toEqual([{ Authorization: 'Bearer gh-very-secret' }]);
    const { result: again, writes } = await writesDuring(() => go());
    expect(again.stdout).toContain('note: mcp_servers headers are write-only: not compared, sent again only with --update-secrets');
    expect(writes).toEqual([]);
    // Another server added: mcp_servers is PATCHed whole, without gh's headers (omitted keeps them), so no secret is read.
    writeFileSync(join(dir, 'agent.yaml'), `${readFileSync(join(dir, 'agent.yaml'), 'utf8')}  - {type: url, name: docs, url: "https://docs.example"}\n`);
    const { result: changed, writes: patched } = await writesDuring(() => go({ env: { GH_HEADER: undefined } }));
    expect(changed.code).toBe(0);
    expect(patched).toEqual([`PATCH /v1/agents/${agent.id}`]);
    expect(Object.values(emu.collection('agents', 'agent', 'agent').get(agent.id)!._mcp_headers)).toEqual([{ Authorization: 'Bearer gh-very-secret' }, {}]);
    for (const r of [created, again, changed]) expect(r.stdout + r.stderr).not.toContain('gh-very-secret');
  });
});

describe('svc apply: sources', () => {
  it('reads - from standard input, skips hidden folders, and labels with --set', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(dir, '.github', 'workflows', 'ci.yml'), 'on: push\n');
    writeFileSync(join(dir, 'env.yml'), 'kind: Environment\nname: from-folder\n');
    const r = await run(['apply', '-f', '.', '-f', '-', '--set', 'piped'], { cwd: dir, stdin: 'kind: MemoryStore\nname: from-stdin\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((e: { kind: string; name: string }) => `${e.kind} ${e.name}`)).toEqual([
      'Environment from-folder',
      'MemoryStore from-stdin',
    ]);
    expect((await named('/v1/memory-stores', 'from-stdin'))[0].metadata).toEqual({ 'svc-apply-set': 'piped' });
  });
});
