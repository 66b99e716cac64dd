import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { Capture, emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

/** Every API request the emulator answers, as `METHOD /path`. */
const log: string[] = [];
const t = useEmulator({ log: (line) => log.push(line) });
const agentReads = () => log.filter((l) => /^GET \/v1\/agents\/[^/\s]+ /.test(l)).length;

let reviewer: { id: string };
let triage: { id: string };
const sessionIds: string[] = [];

beforeAll(async () => {
  reviewer = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'reviewer', model: 'scripted-1' } })).body;
  triage = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'triage', model: 'scripted-1' } })).body;
  for (let i = 0; i < 50; i++) {
    const agent_id = i % 2 ? reviewer.id : triage.id;
    sessionIds.push((await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id, title: `s${i}`, metadata: { named: 'yes' } } })).body.id);
  }
  await call(t.emu, 'POST', '/v1/triggers', {
    body: {
      name: 'nightly',
      agent_id: reviewer.id,
      session_mode: 'new_session',
      initial_events: [{ type: 'user.message', data: { content: [{ type: 'text', text: 'go' }] } }],
    },
  });
});

const onTty = () => ({ stdoutTTY: true, columns: 250, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });

describe('agent names beside agent IDs in tables', () => {
  it('sessions list on a terminal shows each agent as NAME (ID@version): 50 sessions of 2 agents cost 2 agent reads', async () => {
    const before = agentReads();
    const r = await svc(['sessions', 'list', '--all', '-l', 'named=yes'], onTty());
    expect(r.code).toBe(0);
    expect(agentReads() - before).toBe(2);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(50);
    expect(rows.filter((l) => l.includes(`reviewer (${reviewer.id}@1)`))).toHaveLength(25);
    expect(rows.filter((l) => l.includes(`triage (${triage.id}@1)`))).toHaveLength(25);
  });

  it('sessions list as json, ndjson, yaml, -q or --jq prints the service objects untouched and reads no agent', async () => {
    for (const args of [['-o', 'json'], ['-o', 'ndjson'], ['-o', 'yaml'], ['-q'], ['--jq', '.[].agent_id'], ['-o', 'table', '--jq', '.[0]']]) {
      const before = agentReads();
      const r = await svc(['sessions', 'list', '--all', '-l', 'named=yes', ...args], onTty());
      expect(r.code, args.join(' ')).toBe(0);
      expect(agentReads() - before, args.join(' ')).toBe(0);
      expect(r.stdout).not.toContain('reviewer');
    }
    const json = JSON.parse((await svc(['sessions', 'list', '--all', '-l', 'named=yes', '-o', 'json'], onTty())).stdout);
    expect(json[0]).not.toHaveProperty('agent_name');
    expect(Object.keys(json[0])).toEqual(Object.keys((await call(t.emu, 'GET', `/v1/sessions/${json[0].id}`)).body));
  });

  it('an agent that cannot be read shows its bare ID, read once', async () => {
    const gone = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'gone', model: 'scripted-1' } })).body;
    for (let i = 0; i < 3; i++) await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: gone.id, metadata: { named: 'gone' } } });
    await call(t.emu, 'DELETE', `/v1/agents/${gone.id}`);
    const before = agentReads();
    const r = await svc(['sessions', 'list', '-l', 'named=gone'], onTty());
    expect(r.code).toBe(0);
    expect(agentReads() - before).toBe(1);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(new RegExp(`\\s${gone.id}@1\\s`));
  });

  it('triggers list on a terminal shows the agent name; json reads no agent', async () => {
    const before = agentReads();
    const r = await svc(['triggers', 'list'], onTty());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`nightly\\s.*reviewer \\(${reviewer.id}\\)`));
    expect(agentReads() - before).toBe(1);
    const json = await svc(['triggers', 'list', '-o', 'json'], onTty());
    expect(JSON.parse(json.stdout)[0].agent_id).toBe(reviewer.id);
    expect(agentReads() - before).toBe(1);
  });

  it('sessions list --watch rows on a terminal show the agent name, each agent read once for the whole watch', async () => {
    const stdin = new PassThrough();
    stdin.end();
    const stdout = new Capture();
    stdout.isTTY = true;
    const stderr = new Capture();
    const before = agentReads();
    const code = await main(['sessions', 'list', '-w', '-l', 'named=yes', '--interval', '20ms', '--timeout', '300ms'], {
      stdin,
      stdout,
      stderr,
      env: { SVC_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...emuEnv(t.emu) },
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    const [header, ...rows] = stdout.text.trimEnd().split('\n');
    expect(header).toMatch(/^EVENT\s+ID\s+STATUS\s+TITLE\s+AGENT\s+AGE$/);
    expect(rows).toHaveLength(50);
    expect(rows.filter((l) => l.includes(`reviewer (${reviewer.id}@1)`))).toHaveLength(25);
    expect(agentReads() - before).toBe(2);
  });
});
