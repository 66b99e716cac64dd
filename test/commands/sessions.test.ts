// Rules proved here: R-SESS-1, R-SESS-3, R-SESS-6, R-SESS-8, R-SESS-9, R-SESS-14, R-SESS-15, R-SESS-16, R-SESS-18, R-SESS-20,
// R-SESS-21, R-SESS-24, R-SESS-27, R-SESS-28, R-SESS-29, R-SESS-32, R-SESS-34, R-SESS-37, R-SESS-43, R-SESS-44, R-SESS-46,
// R-SESS-47, R-SESS-48, R-SESS-49, R-SESS-50, R-SESS-53, R-HIST-3, R-HIST-4, R-PAGE-8
import { describe, expect, it } from 'vitest';
import { epochAtLeast } from '../../src/commands/sessions/poll';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';
import { createSession, getSession, history, message, send, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { env: emuEnv(t.emu), ...o });
const requests = (): Promise<number> => requestCount(t.emu);

/** An interrupted session keeps new input queued until Continue, so pending entries stay put (docs/service.md). */
async function interruptedSession(): Promise<any> {
  const s = await createSession(t.emu);
  const r = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
  expect(r.status).toBe(202);
  return waitSession(t.emu, s.id, (x) => x.interrupted && !x.stopping, 'interrupted');
}

const waitEvent = (sid: string, pred: (e: any) => boolean, what: string) =>
  waitUntil(async () => (await history(t.emu, `/v1/sessions/${sid}`)).find(pred), what);

async function uploadFile(text: string): Promise<string> {
  const fd = new FormData();
  fd.append('file', new Blob([text], { type: 'text/plain' }), 'notes.txt');
  const res = new Response(fd);
  const r = await call(t.emu, 'POST', '/v1/files', {
    raw: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe('svc sessions create, list, get, update, delete, archive', () => {
  it('creates from flags: the server holds the agent, frozen version, title and vaults', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'creator', model: 'm' } })).body;
    await call(t.emu, 'PATCH', `/v1/agents/${agent.id}`, { body: { system: 'v2' } });
    const r = await run(['sessions', 'create', '--agent', agent.id, '--agent-version', '1', '--title', 'Nightly', '--vault', 'vlt_a', '--vault', 'vlt_b']);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    const held = await getSession(t.emu, created.id);
    expect(held).toMatchObject({ agent_id: agent.id, agent_version: 1, title: 'Nightly', vault_ids: ['vlt_a', 'vlt_b'], status: 'idle' });
    expect(created).toEqual(held);
  });

  it('R-SESS-6 R-SESS-53 mounts --resource-file files, readable with resources list and get by binding ID', async () => {
    const fileId = await uploadFile('mounted');
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'files', model: 'm' } })).body;
    const sid = (await run(['sessions', 'create', '--agent-id', agent.id, '--resource-file', fileId, '-q'])).stdout.trim();
    const list = JSON.parse((await run(['sessions', 'resources', 'list', sid])).stdout);
    expect(list).toEqual([expect.objectContaining({ type: 'file', file_id: fileId })]);
    const one = await run(['sessions', 'resources', 'get', sid, list[0].id, '-o', 'id']);
    expect(one.stdout).toBe(`${list[0].id}\n`);
    const table = await run(['sessions', 'resources', 'list', sid], { stdoutTTY: true, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(table.stdout).toMatch(/^ID\s+TYPE\s+FILE_ID\n/);
    expect(table.stdout).toContain(fileId);
  });

  it('2 for a create without an agent, before any request', async () => {
    const before = await requests();
    const r = await run(['sessions', 'create', '--title', 'orphan']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: session agent_id is required (--agent or --data)\n');
    expect(await requests()).toBe(before);
  });

  it('R-PAGE-8 lists as a table, JSON, NDJSON and IDs, with the created-after filter sent as created_at_gt', async () => {
    const s = await createSession(t.emu, { title: 'listed one' });
    const table = await run(['sessions', 'list', '--all'], { stdoutTTY: true, columns: 200, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+AGENT\s+EPOCH\s+UPDATED$/);
    expect(table.stdout).toMatch(new RegExp(`${s.id}\\s+listed one\\s+idle\\s+\\S+ \\(${s.agent_id}@1\\)\\s+0\\s+\\d+s ago`));
    expect(JSON.parse((await run(['sessions', 'list', '--all'])).stdout).map((x: any) => x.id)).toContain(s.id);
    const nd = (await run(['sessions', 'list', '--all', '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(nd).toContain(s.id);
    expect((await run(['sessions', 'list', '--all', '-q'])).stdout.split('\n')).toContain(s.id);
    const later = await run(['sessions', 'list', '--all', '--created-after', s.created_at, '-q']);
    expect(later.stdout.split('\n')).not.toContain(s.id);
    const earlier = await run(['sessions', 'list', '--all', '--created-after', '2000-01-01T00:00:00Z', '-q']);
    expect(earlier.stdout.split('\n')).toContain(s.id);
  });

  it('gets, updates the title with PATCH and deletes (204 printed as {id, deleted})', async () => {
    const s = await createSession(t.emu);
    const u = await run(['sessions', 'update', s.id, '--title', 'Renamed']);
    expect(JSON.parse(u.stdout).title).toBe('Renamed');
    expect((await getSession(t.emu, s.id)).title).toBe('Renamed');
    const g = await run(['sessions', 'get', s.id, '--jq', '.title']);
    expect(g.stdout).toBe('Renamed\n');
    const d = await run(['sessions', 'delete', s.id]);
    expect(JSON.parse(d.stdout)).toEqual({ id: s.id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).status).toBe(404);
  });

  it('R-SESS-43 R-SESS-44 R-SESS-46 archives an idle session: terminated, still readable, rejecting new input with exit 7', async () => {
    const s = await createSession(t.emu);
    const a = await run(['sessions', 'archive', s.id]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ id: s.id, status: 'terminated', archived_at: expect.any(String) });
    expect((await run(['sessions', 'get', s.id])).code).toBe(0);
    const r = await run(['sessions', 'send', s.id, '--text', 'too late']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: .* \(type=failed_precondition_error status=400 request_id=\S+\)\n$/);
  });
  it('R-SESS-47 archives a running session by interrupting it and waiting for idle first', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const r = await run(['sessions', 'archive', s.id]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`interrupting ${s.id} and waiting for it to stop before archiving\n`);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'terminated', archived_at: expect.any(String) });
    const types = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.type);
    expect(types.indexOf('user.interrupt')).toBeGreaterThan(-1);
    expect(types.indexOf('user.interrupt')).toBeLessThan(types.lastIndexOf('session.status'));
  });

  it('R-SESS-48 7 for deleting a session with an active execution', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const r = await run(['sessions', 'delete', s.id]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('type=conflict_error status=409');
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).status).toBe(200);
  });
});

describe('svc sessions send', () => {
  it('R-SESS-9 R-SESS-21 prints the accepted event_id (bare with -q and on a table, an object as JSON); the message runs under that id', async () => {
    const s = await createSession(t.emu);
    const q = await run(['sessions', 'send', s.id, '--text', 'hello there', '-q']);
    expect(q.code).toBe(0);
    const eventId = q.stdout.trim();
    expect(q.stdout).toMatch(/^\S+\n$/);
    const consumed = await waitEvent(s.id, (e) => e.id === eventId, 'the consumed message');
    expect(consumed).toMatchObject({ type: 'user.message', data: { content: [{ type: 'text', text: 'hello there' }] } });
    const json = await run(['sessions', 'send', s.id, '--text', 'again']);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['event_id']);
    const table = await run(['sessions', 'send', s.id, '--text', 'third'], { stdoutTTY: true });
    expect(table.stdout).toMatch(/^\S+\n$/);
  });

  it('R-SESS-8 reads the message from piped standard input, and --text - too; an empty one wakes the agent with Continue.', async () => {
    const s = await createSession(t.emu);
    const piped = (await run(['sessions', 'send', s.id, '-q'], { stdin: 'from a pipe\n' })).stdout.trim();
    expect((await waitEvent(s.id, (e) => e.id === piped, 'piped message')).data.content).toEqual([{ type: 'text', text: 'from a pipe' }]);
    const dash = (await run(['sessions', 'send', s.id, '--text', '-', '-q'], { stdin: 'dash\nlines' })).stdout.trim();
    expect((await waitEvent(s.id, (e) => e.id === dash, 'dash message')).data.content).toEqual([{ type: 'text', text: 'dash\nlines' }]);
    const empty = (await run(['sessions', 'send', s.id, '-q'], { stdin: '' })).stdout.trim();
    expect((await waitEvent(s.id, (e) => e.id === empty, 'empty message')).data.content).toEqual([]);
    await waitEvent(s.id, (e) => e.type === 'agent.message' && e.data.content[0].text === 'You said: Continue.', 'the default prompt answered');
  });

  it('R-SESS-1 R-SESS-18 R-SESS-20 queues --steer and plain sends with their type, in arrival order, shown by pending', async () => {
    const s = await interruptedSession();
    const a = (await run(['sessions', 'send', s.id, '--text', 'first', '-q'])).stdout.trim();
    const b = (await run(['sessions', 'send', s.id, '--text', 'second', '--steer', '-q'])).stdout.trim();
    const pending = JSON.parse((await run(['sessions', 'pending', s.id])).stdout);
    expect(pending.map((p: any) => [p.event_id, p.type])).toEqual([
      [a, 'next_turn'],
      [b, 'steer'],
    ]);
    expect(pending[1].events).toEqual([message('second')]);
    const table = await run(['sessions', 'pending', s.id], { stdoutTTY: true, columns: 200, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(table.stdout).toMatch(/^EVENT_ID\s+TYPE\s+QUEUED\s+TEXT\n/);
    expect(table.stdout).toMatch(new RegExp(`${b}\\s+steer\\s+\\d+s ago\\s+second\\n`));
  });

  it('R-SESS-6 attaches --file blocks, bound to the session as file resources', async () => {
    const s = await createSession(t.emu);
    const fileId = await uploadFile('attached');
    const id = (await run(['sessions', 'send', s.id, '--text', 'see file', '--file', fileId, '-q'])).stdout.trim();
    const ev = await waitEvent(s.id, (e) => e.id === id, 'message with file');
    expect(ev.data.content).toEqual([
      { type: 'text', text: 'see file' },
      { type: 'file', file_id: fileId },
    ]);
    const bindings = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/resources`)).body.items;
    expect(bindings).toEqual([expect.objectContaining({ type: 'file', file_id: fileId })]);
  });

  it('sends --data as the whole body, events array or {type, events}', async () => {
    const s = await interruptedSession();
    await run(['sessions', 'send', s.id, '--data', JSON.stringify([message('from data')])]);
    await run(['sessions', 'send', s.id, '--data', JSON.stringify({ type: 'steer', events: [message('steered data')] })]);
    const pending = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/events/pending`)).body.items;
    expect(pending.map((p: any) => [p.type, p.events[0].data.content[0].text])).toEqual([
      ['next_turn', 'from data'],
      ['steer', 'steered data'],
    ]);
  });

  it('sends an Idempotency-Key with each send, fresh every time', async () => {
    const s = await interruptedSession();
    const a = await run(['sessions', 'send', s.id, '--text', 'k', '--debug']);
    const b = await run(['sessions', 'send', s.id, '--text', 'k', '--debug']);
    const key = (x: string) => /idempotency-key=(\S+)/.exec(x)?.[1];
    expect(key(a.stderr)).toBeTruthy();
    expect(key(a.stderr)).not.toBe(key(b.stderr));
  });

  it('R-SESS-15 R-SESS-16 the 51st pending input is exit 7 (failed_precondition_error); interrupt and continue still work', async () => {
    const s = await interruptedSession();
    for (let i = 0; i < 50; i++) await send(t.emu, s.id, `queued ${i}`);
    const r = await run(['sessions', 'send', s.id, '--text', 'one too many']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/\(type=failed_precondition_error status=400 request_id=\S+\)\n$/);
    expect((await run(['sessions', 'interrupt', s.id])).code).toBe(0);
    const c = await run(['sessions', 'continue', s.id]);
    expect(c.code).toBe(0);
    expect(BigInt(JSON.parse(c.stdout).control_epoch)).toBeGreaterThan(BigInt(s.control_epoch));
  });

  it('2 for --text with --data, or nothing to send on a terminal, before any request', async () => {
    const before = await requests();
    const both = await run(['sessions', 'send', 'sesn_x', '--text', 'a', '--data', '[]']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --text and --data cannot be used together\n');
    const none = await run(['sessions', 'send', 'sesn_x'], { stdinTTY: true });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('error: give --text, --data or --file, or pipe the message on standard input\n');
    const shape = await run(['sessions', 'send', 'sesn_x', '--data', '{"text":"no events"}']);
    expect(shape.code).toBe(2);
    expect(await requests()).toBe(before);
  });
});

describe('svc sessions interrupt and continue', () => {
  it('R-SESS-27 R-SESS-28 interrupt --wait reads the session until it has stopped and prints it', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const r = await run(['sessions', 'interrupt', s.id, '--wait']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ id: s.id, status: 'idle', stopping: false, interrupted: true, control_epoch: '1' });
    expect(await getSession(t.emu, s.id)).toMatchObject({ interrupted: true, stopping: false });
    const ack = (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'user.interrupt');
    expect(ack.epoch).toBe('1');
  });

  it('interrupt without --wait prints the new control epoch; --expected-epoch is sent as expected_control_epoch', async () => {
    const s = await createSession(t.emu);
    const r = await run(['sessions', 'interrupt', s.id, '--expected-epoch', '0']);
    expect(JSON.parse(r.stdout)).toEqual({ id: s.id, control_epoch: '1' });
    const ack = await waitEvent(s.id, (e) => e.type === 'user.interrupt', 'interrupt ack');
    expect(ack.data).toEqual({ expected_control_epoch: '0' });
  });

  it('R-SESS-29 a stale --expected-epoch is exit 7 (conflict_error) and changes nothing', async () => {
    const s = await interruptedSession();
    const r = await run(['sessions', 'interrupt', s.id, '--expected-epoch', '0']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('type=conflict_error status=409');
    expect((await getSession(t.emu, s.id)).control_epoch).toBe(s.control_epoch);
  });

  it('R-SESS-32 R-SESS-34 R-SESS-37 continue --wait returns once continue_pending is false on the returned epoch; queued input then runs', async () => {
    const s = await interruptedSession();
    const queued = await send(t.emu, s.id, 'kept while interrupted');
    const r = await run(['sessions', 'continue', s.id, '--wait']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ id: s.id, continue_pending: false, interrupted: false });
    expect(BigInt(printed.control_epoch)).toBeGreaterThan(BigInt(s.control_epoch));
    await waitEvent(s.id, (e) => e.id === queued, 'the kept input consumed');
  });

  it('continue without --wait prints the returned epoch while the start is still pending', async () => {
    const s = await interruptedSession();
    const r = await run(['sessions', 'continue', s.id]);
    const printed = JSON.parse(r.stdout);
    expect(printed).toEqual({ id: s.id, control_epoch: String(BigInt(s.control_epoch) + 1n) });
  });

  it('R-SESS-24 compares control epochs as digit strings, beyond 2^53', () => {
    expect(epochAtLeast('9007199254740993', '9007199254740992')).toBe(true);
    expect(epochAtLeast('9007199254740992', '9007199254740993')).toBe(false);
    expect(epochAtLeast('10', '9')).toBe(true);
    expect(epochAtLeast('9', '10')).toBe(false);
  });

  it('2 for an --expected-epoch that is not a control epoch, before any request', async () => {
    const before = await requests();
    const r = await run(['sessions', 'interrupt', 'sesn_x', '--expected-epoch', '01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --expected-epoch must be a control epoch/);
    expect(await requests()).toBe(before);
  });
});

describe('svc sessions confirm and tool-result', () => {
  it('R-SESS-14 R-SESS-49 confirm --deny --message answers the awaited tool call; the agent sees the denial', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm bash {"cmd":"rm -rf /"}');
    const waiting = await waitSession(t.emu, s.id, (x) => x.requires_action, 'requires_action');
    const [callId] = waiting.stop_reason.event_ids;
    const r = await run(['sessions', 'confirm', s.id, callId, '--deny', '--message', 'Not on production']);
    expect(r.code).toBe(0);
    const reply = await waitEvent(s.id, (e) => e.type === 'user.tool_confirmation', 'the confirmation');
    expect(reply.data).toEqual({ event_id: callId, result: 'deny', deny_message: 'Not on production' });
    expect(reply.session_thread_id).toBeUndefined();
    expect(JSON.parse(r.stdout)).toEqual({ event_id: reply.id });
    const result = await waitEvent(s.id, (e) => e.type === 'agent.tool_result' && e.data.event_id === callId, 'tool result');
    expect(result.data.is_error).toBe(true);
  });

  it('confirm --allow lets the tool run', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm grep {"q":"x"}');
    const [callId] = (await waitSession(t.emu, s.id, (x) => x.requires_action, 'requires_action')).stop_reason.event_ids;
    expect((await run(['sessions', 'confirm', s.id, callId, '--allow', '-q'])).code).toBe(0);
    const result = await waitEvent(s.id, (e) => e.type === 'agent.tool_result' && e.data.event_id === callId, 'tool result');
    expect(result.data.is_error).toBeUndefined();
  });

  it('R-SESS-50 tool-result answers a custom tool call with user.custom_tool_result', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/custom lookup {"q":1}');
    const [callId] = (await waitSession(t.emu, s.id, (x) => x.requires_action, 'requires_action')).stop_reason.event_ids;
    const r = await run(['sessions', 'tool-result', s.id, callId, '--text', 'no rows', '--error', '-q']);
    expect(r.code).toBe(0);
    const reply = await waitEvent(s.id, (e) => e.type === 'user.custom_tool_result', 'the custom result');
    expect(reply.data).toEqual({ event_id: callId, content: [{ type: 'text', text: 'no rows' }], is_error: true });
    expect(r.stdout).toBe(`${reply.id}\n`);
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && !x.requires_action, 'idle after the result');
  });

  it('2 unless exactly one of --allow and --deny (and --message only with --deny), before any request', async () => {
    const before = await requests();
    const both = await run(['sessions', 'confirm', 'sesn_x', 'sevt_x', '--allow', '--deny']);
    expect([both.code, both.stderr]).toEqual([2, 'error: --allow and --deny cannot be used together\n']);
    const none = await run(['sessions', 'confirm', 'sesn_x', 'sevt_x']);
    expect([none.code, none.stderr]).toEqual([2, 'error: give --allow or --deny\n']);
    const msg = await run(['sessions', 'confirm', 'sesn_x', 'sevt_x', '--allow', '--message', 'x']);
    expect(msg.code).toBe(2);
    const result = await run(['sessions', 'tool-result', 'sesn_x', 'sevt_x']);
    expect([result.code, result.stderr]).toEqual([2, 'error: give --text or --data\n']);
    expect(await requests()).toBe(before);
  });
});

describe('svc sessions events', () => {
  it('R-HIST-3 R-HIST-4 lists history oldest first, newest first with --order desc, as a table with summaries', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo one two');
    const all = await waitUntil(async () => {
      const h = await history(t.emu, `/v1/sessions/${s.id}`);
      return h.some((e) => e.type === 'session.status' && e.data.status === 'idle') ? h : undefined;
    }, 'idle');
    const asc = JSON.parse((await run(['sessions', 'events', s.id, '--all'])).stdout);
    expect(asc.map((e: any) => e.id)).toEqual(all.map((e) => e.id));
    const desc = JSON.parse((await run(['sessions', 'events', s.id, '--order', 'desc', '--limit', '3', '--page-size', '2'])).stdout);
    expect(desc.map((e: any) => e.id)).toEqual(
      all
        .slice(-3)
        .reverse()
        .map((e) => e.id),
    );
    const table = await run(['sessions', 'events', s.id, '--all'], { stdoutTTY: true, columns: 250, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TIME\s+THREAD\s+TYPE\s+SUMMARY$/);
    expect(table.stdout).toMatch(/\d+s ago\s+agent\.message\s+one two\n/);
    const nd = (await run(['sessions', 'events', s.id, '--all', '-o', 'ndjson'])).stdout.trim().split('\n');
    expect(nd).toHaveLength(all.length);
  });

  it('2 for an --order other than asc or desc, before any request', async () => {
    const before = await requests();
    const r = await run(['sessions', 'events', 'sesn_x', '--order', 'newest']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('asc, desc');
    expect(await requests()).toBe(before);
  });

  it('6 for an unknown session', async () => {
    const r = await run(['sessions', 'events', 'sesn_missing']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('type=resource_not_found_error status=404');
  });
});

describe('svc sessions help', () => {
  it('every verb has an example', async () => {
    const verbs = [
      'list',
      'get',
      'create',
      'update',
      'delete',
      'archive',
      'send',
      'interrupt',
      'continue',
      'confirm',
      'tool-result',
      'pending',
      'events',
      'export',
    ];
    for (const v of verbs) {
      const r = await run(['sessions', v, '--help']);
      expect(r.code, v).toBe(0);
      expect(r.stdout, v).toMatch(/Examples:\n {2}\$ svc sessions /);
    }
    for (const v of ['list', 'get']) expect((await run(['sessions', 'resources', v, '--help'])).stdout).toContain('$ svc sessions resources ' + v);
  });
});
