// Rules proved here (the scripted model, docs/behaviour.md "The emulator"; admin paths /_emulator/sessions/{id}/mcp and …/model-requests):
// R-EVT-18, R-ERR-26, R-ERR-27, R-ERR-28, R-CONF-17, R-CONF-18, R-CONF-19, R-CONF-20, R-CONF-21
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { agentSession, history, SseClient, turn as sseTurn, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });

const DOCS = { type: 'url', name: 'docs', url: 'https://docs.mcp.example.com' };
const TRACKER = { type: 'url', name: 'tracker', url: 'https://tracker.mcp.example.com' };
const toolset = (server: string, ...names: string[]) => ({ type: 'mcp_toolset', mcp_server_name: server, configs: names.map((name) => ({ name })) });

/** A session of a fresh agent with this configuration. */
const session = async (agent: Record<string, unknown>): Promise<string> => (await agentSession(t.emu, agent)).id;
const turn = (sid: string, text: string, n: number) => sseTurn(t.emu, sid, text, n);

const since = (h: any[], text: string) => h.slice(h.findIndex((e) => e.type === 'user.message' && e.data.content[0].text === text));
const lastIdle = (h: any[]) => h.filter((e) => e.type === 'session.status' && e.data.status === 'idle').at(-1);
const mcpLog = async (sid: string) => (await call(t.emu, 'GET', `/_emulator/sessions/${sid}/mcp`)).body.items;
const requests = async (sid: string) => (await call(t.emu, 'GET', `/_emulator/sessions/${sid}/model-requests`)).body.items;
/** Each tool of a request as `[server/]name` plus `+schema` when its schema was sent. */
const shown = (r: { tools: Array<{ name: string; mcp_server_name?: string; input_schema?: unknown }> }) =>
  r.tools.map((d) => `${d.mcp_server_name ? `${d.mcp_server_name}/` : ''}${d.name}${d.input_schema ? '+schema' : ''}`);

describe('emulator: streaming and non-streaming model calls', () => {
  it('R-EVT-18 streaming replies have *_started events; a /nostream call has neither, and no deltas', async () => {
    const sid = await session({});
    const stream = await SseClient.open(t.emu, `/v1/sessions/${sid}/events/stream?include_deltas=true`);
    await turn(sid, 'streamed please', 1);
    const h = await turn(sid, '/nostream all at once', 2);
    await waitUntil(() => stream.events.filter((f) => f.json.type === 'session.status' && f.json.data.status === 'idle').length === 2, 'two idle frames');
    stream.close();
    const streamed = h.slice(
      0,
      h.findIndex((e) => e.type === 'user.message' && e.data.content[0].text === '/nostream all at once'),
    );
    expect(streamed.map((e) => e.type)).toEqual(expect.arrayContaining(['agent.thinking_started', 'agent.message_started']));
    const quiet = since(h, '/nostream all at once').map((e) => e.type);
    expect(quiet).toEqual(['user.message', 'session.status', 'agent.model_started', 'agent.thinking', 'agent.message', 'session.status']);
    expect(since(h, '/nostream all at once').find((e) => e.type === 'agent.message').data.content).toEqual([{ type: 'text', text: 'all at once' }]);
    const live = stream.events.map((f) => f.json);
    const liveQuiet = live.slice(live.findIndex((e) => e.type === 'user.message' && e.data.content[0].text === '/nostream all at once'));
    expect(live.some((e) => e.type === 'agent.delta')).toBe(true);
    expect(liveQuiet.filter((e) => e.type === 'agent.delta' || e.type === 'agent.thinking_started' || e.type === 'agent.message_started')).toEqual([]);
    expect(lastIdle(h).data.stop_reason).toEqual({ type: 'end_turn' });
  });
});

describe('emulator: MCP errors during a run', () => {
  it("R-ERR-26 a lost MCP connection is reported and takes away only that server's tools while execution continues", async () => {
    const sid = await session({ mcp_servers: [DOCS, TRACKER], tools: [toolset('docs', 'search'), toolset('tracker', 'lookup')] });
    let h = since(await turn(sid, '/mcp-fail docs connection', 1), '/mcp-fail docs connection');
    const use = h.find((e) => e.type === 'agent.tool_use');
    expect(use.data).toMatchObject({ name: 'search', mcp_server_name: 'docs' });
    expect(h.find((e) => e.type === 'agent.tool_result')).toMatchObject({ data: { event_id: use.id, is_error: true } });
    const err = h.findIndex((e) => e.type === 'session.error');
    expect(h[err].data).toMatchObject({ error_type: 'mcp_connection_failed', mcp_server_name: 'docs' });
    // Execution continued past the error: another model request, a final message, and end_turn, not an error stop.
    expect(h.slice(err).map((e) => e.type)).toEqual(expect.arrayContaining(['agent.model_started', 'agent.message']));
    expect(lastIdle(h).data.stop_reason).toEqual({ type: 'end_turn' });
    const reqs = await requests(sid);
    expect(shown(reqs[0])).toEqual(expect.arrayContaining(['docs/search', 'tracker/lookup']));
    expect(shown(reqs.at(-1))).toEqual(['tracker/lookup']);

    // Later turns: docs' tools stay unavailable (the model says so, nothing is called), tracker's still run.
    h = since(await turn(sid, '/mcp docs search {}', 2), '/mcp docs search {}');
    expect(h.map((e) => e.type)).not.toContain('agent.tool_use');
    expect(h.map((e) => e.type)).not.toContain('session.error');
    expect(h.find((e) => e.type === 'agent.message').data.content[0].text).toMatch(/docs.*unavailable/);
    h = since(await turn(sid, '/mcp tracker lookup {"id":7}', 3), '/mcp tracker lookup {"id":7}');
    expect(h.find((e) => e.type === 'agent.tool_use').data).toMatchObject({ name: 'lookup', mcp_server_name: 'tracker' });
    expect(h.find((e) => e.type === 'agent.tool_result').data.is_error).toBeUndefined();
    expect(lastIdle(h).data.stop_reason).toEqual({ type: 'end_turn' });
    expect((await mcpLog(sid)).map((x: any) => `${x.server} ${x.action} ${x.outcome}`)).toEqual([
      'docs call connection_lost',
      'docs session_error reported',
      'tracker call ok',
    ]);
  });

  it('R-ERR-27 mcp_authentication_failed is reported only after a credential refresh and one retry are rejected', async () => {
    const sid = await session({ mcp_servers: [DOCS] });
    const h = since(await turn(sid, '/mcp-fail docs auth', 1), '/mcp-fail docs auth');
    const errors = h.filter((e) => e.type === 'session.error');
    expect(errors).toHaveLength(1);
    expect(errors[0].data).toMatchObject({ error_type: 'mcp_authentication_failed', mcp_server_name: 'docs' });
    expect(errors[0].data.message).toMatch(/refresh.*retry/);
    const use = h.find((e) => e.type === 'agent.tool_use');
    const log = await mcpLog(sid);
    expect(log.map((x: any) => `${x.action} ${x.outcome}`)).toEqual(['call rejected', 'credential_refresh ok', 'retry rejected', 'session_error reported']);
    expect(log.slice(0, 3).every((x: any) => x.event_id === use.id && x.server === 'docs')).toBe(true);
    expect(log[3]).toMatchObject({ error_type: 'mcp_authentication_failed', event_id: errors[0].id });
    expect(lastIdle(h).data.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('R-ERR-28 a credential refresh that fails without a rejection is no session error, and the server stays usable', async () => {
    const sid = await session({ mcp_servers: [DOCS] });
    let h = since(await turn(sid, '/mcp-fail docs refresh', 1), '/mcp-fail docs refresh');
    expect(h.map((e) => e.type)).not.toContain('session.error');
    expect(h.find((e) => e.type === 'agent.tool_result').data.is_error).toBe(true);
    expect(lastIdle(h).data.stop_reason).toEqual({ type: 'end_turn' });
    expect((await mcpLog(sid)).map((x: any) => `${x.action} ${x.outcome}`)).toEqual(['call rejected', 'credential_refresh failed']);
    h = since(await turn(sid, '/mcp docs search {}', 2), '/mcp docs search {}');
    expect(h.find((e) => e.type === 'agent.tool_result').data.is_error).toBeUndefined();
    expect((await history(t.emu, `/v1/sessions/${sid}`)).filter((e) => e.type === 'session.error')).toEqual([]);
  });
});

describe('emulator: what tool definitions a model request carries', () => {
  it('R-CONF-17 MCP tools with no load_mode go by name first; a tool is loaded with its schema when the model needs it, and stays loaded', async () => {
    const sid = await session({ mcp_servers: [DOCS], tools: [toolset('docs', 'search', 'fetch')] });
    await turn(sid, '/echo hi', 1);
    expect(shown((await requests(sid))[0])).toEqual(['docs/search', 'docs/fetch']);
    const h = since(await turn(sid, '/mcp docs search {"q":"x"}', 2), '/mcp docs search {"q":"x"}');
    const reqs = (await requests(sid)).slice(1);
    expect(reqs.map(shown)).toEqual([
      ['docs/search', 'docs/fetch'],
      ['docs/search+schema', 'docs/fetch'],
      ['docs/search+schema', 'docs/fetch'],
    ]);
    // The request carrying the schema comes before the call; each record is one agent.model_started.
    const ids = h.filter((e) => e.type === 'agent.model_started').map((e) => e.id);
    expect(reqs.map((r: any) => r.event_id)).toEqual(ids);
    expect(h.findIndex((e) => e.id === reqs[1].event_id)).toBeLessThan(h.findIndex((e) => e.type === 'agent.tool_use'));
  });

  it('R-CONF-18 load_mode eager sends schemas with every request, set on the toolset or on one tool', async () => {
    const onSet = await session({ mcp_servers: [DOCS], tools: [{ ...toolset('docs', 'search', 'fetch'), default_config: { load_mode: 'eager' } }] });
    const onTool = await session({
      mcp_servers: [DOCS],
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs', configs: [{ name: 'search', load_mode: 'eager' }, { name: 'fetch' }] }],
    });
    await turn(onSet, '/echo one', 1);
    await turn(onSet, '/echo two', 2);
    await turn(onTool, '/echo one', 1);
    expect((await requests(onSet)).map(shown)).toEqual([
      ['docs/search+schema', 'docs/fetch+schema'],
      ['docs/search+schema', 'docs/fetch+schema'],
    ]);
    expect((await requests(onTool)).map(shown)).toEqual([['docs/search+schema', 'docs/fetch']]);
  });

  it('R-CONF-19 a model without on-demand support gets every schema (emulator: a model ID ending in -eager)', async () => {
    const tools = [toolset('docs', 'search'), { type: 'default_toolset_20260901' }];
    const eager = await session({ model: 'scripted-1-eager', mcp_servers: [DOCS], tools });
    const onDemand = await session({ model: 'scripted-1', mcp_servers: [DOCS], tools });
    await turn(eager, '/echo hi', 1);
    await turn(onDemand, '/echo hi', 1);
    const [withEager] = await requests(eager);
    expect(withEager.model).toBe('scripted-1-eager');
    expect(withEager.tools.every((d: any) => d.input_schema)).toBe(true);
    expect(shown(withEager)).toEqual(expect.arrayContaining(['docs/search+schema', 'search_image_by_text+schema']));
    expect(shown((await requests(onDemand))[0])).toEqual(expect.arrayContaining(['docs/search', 'search_image_by_text']));
  });

  it('R-CONF-20 in default_toolset_20260901 the image-search tools load on demand by default and the other built-ins are eager', async () => {
    const sid = await session({ tools: [{ type: 'default_toolset_20260901' }] });
    const set = await session({ tools: [{ type: 'default_toolset_20260901', configs: [{ name: 'search_image_by_image', load_mode: 'eager' }] }] });
    await turn(sid, '/echo hi', 1);
    await turn(set, '/echo hi', 1);
    expect(shown((await requests(sid))[0])).toEqual([
      'bash+schema',
      'read+schema',
      'write+schema',
      'edit+schema',
      'glob+schema',
      'grep+schema',
      'web_fetch+schema',
      'web_search+schema',
      'search_image_by_text',
      'search_image_by_image',
    ]);
    expect(shown((await requests(set))[0]).slice(-2)).toEqual(['search_image_by_text', 'search_image_by_image+schema']);
  });

  it('R-CONF-21 a repeated built-in toolset uses only its first declaration, without merging', async () => {
    const sid = await session({
      tools: [
        { type: 'default_toolset_20260901', configs: [{ name: 'bash', enabled: false }] },
        {
          type: 'default_toolset_20260901',
          configs: [
            { name: 'bash', enabled: true },
            { name: 'search_image_by_text', load_mode: 'eager' },
          ],
          default_config: { enabled: false },
        },
      ],
    });
    await turn(sid, '/echo hi', 1);
    const names = shown((await requests(sid))[0]);
    expect(names).not.toContain('bash+schema');
    expect(names).toContain('search_image_by_text');
    expect(names).toContain('read+schema');
  });

  it('the admin paths answer 404 for an unknown session', async () => {
    expect((await call(t.emu, 'GET', '/_emulator/sessions/sesn_nope/model-requests')).status).toBe(404);
    expect((await call(t.emu, 'GET', '/_emulator/sessions/sesn_nope/mcp')).status).toBe(404);
  });
});
