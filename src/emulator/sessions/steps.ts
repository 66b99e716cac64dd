// The scripted model's building blocks, shared by its directives (model.ts, mcp.ts).
import type { StopReason } from '../../wire/events';
import { SESSION_ERROR_TYPES } from '../../wire/errors';
import type { ModelContext } from './model';

export type Outcome = StopReason;
export const END_TURN: Outcome = { type: 'end_turn' };

export const textContent = (text: string) => [{ type: 'text', text }];

export function parseCall(rest: string): { name: string; input: unknown } | undefined {
  const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest.trim());
  if (!m) return undefined;
  try {
    return { name: m[1], input: m[2] ? JSON.parse(m[2]) : {} };
  } catch {
    return undefined;
  }
}

/** The effective agent's tools as the next model request sees them: an unavailable MCP server's are gone. */
const agentTools = (ctx: ModelContext) => ({ model: ctx.model, tools: ctx.tools, mcpServers: ctx.mcpServers.filter((s) => ctx.platform.mcp.available(s)) });

/** `agent.model_started`: one model request, recorded with the tool definitions it carries  and its route. */
export function modelRequest(ctx: ModelContext): void {
  const tools = ctx.platform.tools.definitions(agentTools(ctx));
  const id = ctx.emit('agent.model_started', { model: ctx.model });
  ctx.platform.tools.requests.push({ event_id: id, model: ctx.model, tools });
  ctx.platform.egress.modelRequest(id);
}

/**
 * A tool the current definitions name without its schema is loaded before it is called: its schema is
 * loaded and a further model request carries it, as do all later ones ("schemas when needed").
 */
async function loadSchema(ctx: ModelContext, name: string, mcpServer?: string): Promise<void> {
  const def = ctx.platform.tools.definitions(agentTools(ctx)).find((d) => d.name === name && d.mcp_server_name === mcpServer);
  if (!def || def.input_schema) return;
  ctx.platform.tools.load(name, mcpServer);
  await ctx.step();
  modelRequest(ctx);
}

export async function reply(ctx: ModelContext, text: string): Promise<Outcome> {
  modelRequest(ctx);
  await streamText(ctx, 'text', text);
  return END_TURN;
}

/** Streams `text` word by word as deltas of `kind`, then the complete event. */
export async function streamText(ctx: ModelContext, kind: 'text' | 'thinking', text: string, stepMs?: number): Promise<void> {
  const words = text.split(/(?<=\s)/);
  for (let i = 0; i < words.length; i++) {
    await ctx.step(stepMs);
    if (i === 0) ctx.emit(kind === 'text' ? 'agent.message_started' : 'agent.thinking_started');
    ctx.delta({ kind, delta: words[i] });
  }
  if (words.length === 0) ctx.emit(kind === 'text' ? 'agent.message_started' : 'agent.thinking_started');
  ctx.emit(kind === 'text' ? 'agent.message' : 'agent.thinking', { content: [{ type: 'text', text }] });
}

/** `agent.tool_use` preceded by its `tool_use` deltas: the same tool_use_id on each, the name on the first. */
export async function toolUse(ctx: ModelContext, name: string, input: unknown, permission: 'allow' | 'ask', mcpServer?: string): Promise<string> {
  await loadSchema(ctx, name, mcpServer);
  const id = ctx.newEventId();
  const json = JSON.stringify(input);
  const third = Math.ceil(json.length / 3);
  // Assumption: the `mcp` member of the first fragment is `{server_name}` (the spec names it, not its shape).
  const first = { name, ...(mcpServer !== undefined ? { mcp: { server_name: mcpServer } } : {}) };
  for (let i = 0; i < json.length; i += third) {
    await ctx.step();
    ctx.delta({ kind: 'tool_use', tool_use_id: id, input_delta: json.slice(i, i + third), ...(i === 0 ? first : {}) });
  }
  ctx.emit('agent.tool_use', { name, input, permission, ...(mcpServer !== undefined ? { mcp_server_name: mcpServer } : {}) }, id);
  return id;
}

/** Writes `session.error` (with `mcp_server_name` for MCP types) and returns its id. */
export function emitSessionError(ctx: ModelContext, errorType: string, message: string, mcpServer = 'emulator-mcp'): string {
  const mcp = errorType.startsWith('mcp_') ? { mcp_server_name: mcpServer } : {};
  return ctx.emit('session.error', { error_type: errorType, message, ...mcp });
}

/** A `session.error` that ends the turn (`max_steps`, else `error`). */
export async function sessionError(ctx: ModelContext, errorType: string, message?: string, mcpServer?: string): Promise<Outcome> {
  await ctx.step();
  const known = SESSION_ERROR_TYPES.includes(errorType);
  emitSessionError(ctx, errorType, message ?? `${known ? '' : 'unknown error type; '}error injected by /error ${errorType}`, mcpServer);
  return { type: errorType === 'max_steps' ? 'max_steps' : 'error' };
}
