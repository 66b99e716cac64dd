import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const run = (args: string[], o: SvcOptions = {}) => svc(args, { columns: 200, ...o, env: { ...emuEnv(t.emu), NO_COLOR: '1', ...o.env } });
const named = async (path: string, name: string) =>
  ((await call(t.emu, 'GET', `${path}?page_size=1000`)).body.items as Array<Record<string, any>>).filter((x) => x.name === name);

describe('svc apply: the set', () => {
  it("the default set is the folder's path from the repository root: a prune of staging/config never archives what prod/config applied", async () => {
    const repo = tempConfigDir();
    mkdirSync(join(repo, '.git'));
    for (const stage of ['prod', 'staging']) {
      mkdirSync(join(repo, stage, 'config'), { recursive: true });
      writeFileSync(join(repo, stage, 'config', 'store.yaml'), `kind: MemoryStore\nname: ${stage}-notes-set-test\n`);
    }
    expect((await run(['apply', '-f', 'prod/config'], { cwd: repo })).code).toBe(0);
    const r = await run(['apply', '-f', 'staging/config', '--prune', '--yes', '-o', 'table'], { cwd: repo });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plan for set "staging/config": 1 to create, 0 to update, 0 unchanged; --prune archives only what set "staging/config" holds\n');
    const [prod] = await named('/v1/memory-stores', 'prod-notes-set-test');
    expect(prod).toMatchObject({ archived_at: null, metadata: { 'svc-apply-set': 'prod/config' } });
    // From inside the folder the set is the same.
    const again = await run(['diff', '-f', '.', '-o', 'table'], { cwd: join(repo, 'staging', 'config') });
    expect(again.stdout).toContain('plan for set "staging/config": 0 to create, 0 to update, 1 unchanged\n');
    expect(again.code).toBe(0);
  });

  it('outside a repository the default set is the absolute path of the folder', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'store.yaml'), 'kind: MemoryStore\nname: outside-a-repo\n');
    const r = await run(['apply', '-f', 'config'], { cwd: dir });
    expect(r.code).toBe(0);
    const [store] = await named('/v1/memory-stores', 'outside-a-repo');
    expect(store.metadata).toEqual({ 'svc-apply-set': join(dir, 'config') });
  });

  it('--prune names the set it prunes on every archive line', async () => {
    const repo = tempConfigDir();
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, 'a.yaml'), 'kind: MemoryStore\nname: pruned-by-name\n');
    expect((await run(['apply', '-f', 'a.yaml', '--set', 'named-prune'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'a.yaml'), 'kind: MemoryStore\nname: kept-by-name\n');
    const r = await run(['diff', '-f', 'a.yaml', '--set', 'named-prune', '--prune', '-o', 'table'], { cwd: repo });
    expect(r.stdout).toMatch(/- MemoryStore pruned-by-name \(\S+\): archive, no longer in the files of set "named-prune"\n/);
  });
});

describe('svc apply -o json', () => {
  it('prints the real IDs of what this apply created, never the plan stand-ins', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'all.yaml'),
      `kind: Agent
name: json-ids-agent
model: m
---
kind: Environment
name: json-ids-env
config: {type: cloud}
---
kind: Trigger
name: json-ids-trigger
agent: json-ids-agent
environment: json-ids-env
session_mode: new_session
schedule: {type: cron, expression: "0 2 * * *", timezone: UTC}
initial_events:
  - {type: user.message, data: {content: [{type: text, text: hi}]}}
`,
    );
    // A dry run shows stand-ins: nothing is created.
    const dry = await run(['apply', '-f', 'all.yaml', '--set', 'json-ids', '--dry-run', '-o', 'json'], { cwd: dir });
    expect(dry.stdout).toContain('<new Agent json-ids-agent>');
    const r = await run(['apply', '-f', 'all.yaml', '--set', 'json-ids', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('<new ');
    const [agent] = await named('/v1/agents', 'json-ids-agent');
    const [env] = await named('/v1/environments', 'json-ids-env');
    const trigger = JSON.parse(r.stdout).find((e: { kind: string }) => e.kind === 'Trigger');
    expect(trigger.diff).toContainEqual({ op: 'add', path: 'agent_id', new: agent.id });
    expect(trigger.diff).toContainEqual({ op: 'add', path: 'environment_id', new: env.id });
  });
});
