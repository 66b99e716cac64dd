// The scripted model's MCP directives. The platform runs MCP tools itself; what it does on the
// way (calls, credential refreshes, retries) is logged per session for `GET /_emulator/sessions/{id}/mcp`, and
// each outbound request it makes with its route for `…/egress` (see egress.ts).
import type { ModelContext } from './model';
import { emitSessionError, modelRequest, parseCall, reply, sessionError, textContent, toolUse, type Outcome } from './steps';

const FAILURES = ['connection', 'auth', 'refresh'] as const;
type Failure = (typeof FAILURES)[number];

/** Assumption: the model answers in words when a server's tools are gone, as with no delegation tool. */
const unavailable = (ctx: ModelContext, server: string) => reply(ctx, `I cannot use ${server}: its tools are unavailable in this session.`);

const noSuchServer = (ctx: ModelContext, server: string) => sessionError(ctx, 'mcp_connection_failed', `the agent has no MCP server named "${server}"`, server);

/** Why a call to `server` cannot start: the agent has no such server, or its tools are gone; undefined when it can. */
function refusal(ctx: ModelContext, server: string): Promise<Outcome> | undefined {
  if (!ctx.mcpServers.includes(server)) return noSuchServer(ctx, server);
  if (!ctx.platform.mcp.available(server)) return unavailable(ctx, server);
  return undefined;
}

/** A model request that calls `tool` of `server`, up to the call going out (recorded with its route); its event id. */
async function callTool(ctx: ModelContext, server: string, tool: string, input: unknown): Promise<string> {
  modelRequest(ctx);
  const id = await toolUse(ctx, tool, input, 'allow', server);
  await ctx.step();
  ctx.emit('agent.tool_started', { event_id: id });
  await ctx.step();
  ctx.platform.egress.mcpCall(server, id);
  return id;
}

/** `/mcp SERVER TOOL JSON`: a tool of one of the agent's MCP servers, run by the platform. */
export async function mcpTool(ctx: ModelContext, rest: string): Promise<Outcome> {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(rest.trim());
  const call = m ? parseCall(m[2]) : undefined;
  if (!m || !call) return sessionError(ctx, 'invalid_request', `/mcp takes SERVER TOOL JSON, got "${rest}"`);
  const server = m[1];
  const refused = refusal(ctx, server);
  if (refused) return refused;
  const id = await callTool(ctx, server, call.name, call.input);
  ctx.platform.mcp.record({ server, action: 'call', outcome: 'ok', tool: call.name, event_id: id });
  const content = textContent(`${server}.${call.name} ran with ${JSON.stringify(call.input)}`);
  ctx.emit('agent.tool_result', { event_id: id, tool_result: { content, structured_content: content } });
  return reply(ctx, `Tool ${call.name} of ${server} finished.`);
}

/**
 * `/mcp-fail SERVER connection|auth|refresh [TOOL]`: a call to TOOL (default `search`) of SERVER fails.
 * The call gets an error result and the turn goes on to a final message and `end_turn`:
 * - `connection`: the connection is lost mid-run; `session.error` `mcp_connection_failed`, and the server's
 *   tools are unavailable from the next model request on, other tools unaffected.
 * - `auth`: the server rejects the credential; the platform refreshes it and retries once, and only when the
 *   retry is rejected too reports `mcp_authentication_failed`; the server's tools are then unavailable.
 * - `refresh`: the credential refresh itself fails (not a rejection): no retry, no `session.error`;
 *   the server stays available.
 * Assumption: a mid-run failure shows on a call; the failure is injected, whatever credentials the session has.
 */
export async function mcpFail(ctx: ModelContext, rest: string): Promise<Outcome> {
  const m = /^(\S+)\s+(\S+)(?:\s+(\S+))?$/.exec(rest.trim());
  if (!m || !FAILURES.includes(m[2] as Failure))
    return sessionError(ctx, 'invalid_request', `/mcp-fail takes SERVER ${FAILURES.join('|')} [TOOL], got "${rest}"`);
  const [, server, failure, tool = 'search'] = m;
  const { mcp, egress } = ctx.platform;
  const refused = refusal(ctx, server);
  if (refused) return refused;
  const id = await callTool(ctx, server, tool, {});
  const log = (action: 'call' | 'credential_refresh' | 'retry', outcome: 'rejected' | 'ok' | 'failed' | 'connection_lost') =>
    mcp.record({ server, action, outcome, tool, event_id: id });
  let error: { type: string; message: string } | undefined;
  if (failure === 'connection') {
    log('call', 'connection_lost');
    error = {
      type: 'mcp_connection_failed',
      message: `the connection to MCP server "${server}" was lost; its tools are unavailable for the rest of the session`,
    };
  } else {
    log('call', 'rejected');
    await ctx.step();
    egress.credentialRefresh(server, id);
    if (failure === 'auth') {
      log('credential_refresh', 'ok');
      await ctx.step();
      egress.mcpCall(server, id);
      log('retry', 'rejected');
      error = {
        type: 'mcp_authentication_failed',
        message: `MCP server "${server}" still rejected the credential after a credential refresh and one retry; renew or reconnect it`,
      };
    } else {
      // Assumption: without a new credential there is nothing to retry with; the call fails, the session goes on.
      log('credential_refresh', 'failed');
    }
  }
  const why = error?.message ?? `the credential refresh for MCP server "${server}" failed; the call was not retried`;
  ctx.emit('agent.tool_result', { event_id: id, tool_result: { content: textContent(why), structured_content: textContent(why) }, is_error: true });
  if (error) {
    // Assumption: a credential still rejected takes the server's tools away like a lost connection (the spec's "may").
    mcp.drop(server);
    await ctx.step();
    const errorId = emitSessionError(ctx, error.type, error.message, server);
    mcp.record({ server, action: 'session_error', outcome: 'reported', error_type: error.type, event_id: errorId });
  }
  return reply(ctx, error ? `${server} is unavailable; I will go on without its tools.` : `The call to ${tool} of ${server} failed; I will go on.`);
}
