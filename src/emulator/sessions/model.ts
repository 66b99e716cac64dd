import type { DeltaEvent, StopReason } from '../../wire/events';
import { SESSION_ERROR_TYPES } from '../../wire/errors';
import { runsOnWorker } from '../../wire/tools';

/** Which user reply an awaited call takes. */
export type ReplyKind = 'user.tool_confirmation' | 'user.custom_tool_result' | 'user.tool_result';
export type ReplyData = Record<string, any>;

/** What the scripted model may do on one thread; the session runtime implements it. */
export interface ModelContext {
  readonly model: string;
  /** The environment is self-hosted: sandbox tools run on a worker. */
  readonly selfHosted: boolean;
  /** The session has a sub-agent roster: without one it has no orchestration tools (R-CONF-27). */
  readonly canDelegate: boolean;
  /** Names of the MCP servers of the session's effective agent. */
  readonly mcpServers: readonly string[];
  /** Waits one model step (or `ms`), then throws if the execution was cancelled: a step boundary. */
  step(ms?: number): Promise<void>;
  emit(type: string, data?: Record<string, unknown>, id?: string): string;
  delta(data: DeltaEvent['data']): void;
  newEventId(): string;
  /** Parks the thread until every call has its reply (R-SESS-51). */
  awaitReplies(calls: Array<{ id: string; kind: ReplyKind }>): Promise<Map<string, ReplyData>>;
  /** A sandbox call awaits a worker: make sure the session has a work row. */
  requestWorker(): void;
  /** Starts N child threads, each running `childReply` (with `stepMs` between deltas), and waits for them all. */
  delegate(n: number, stepMs?: number): Promise<void>;
  deliverArtifact(name: string): { id: string; version: number } | undefined;
}


export type Outcome = StopReason;
const END_TURN: Outcome = { type: 'end_turn' };
const DEFAULT_SLOW_WORDS = Array.from({ length: 50 }, (_, i) => `word${i + 1}`).join(' ');
const MAX_CHILDREN = 20;
const LONG_BATCH = 200;

/** Runs the script of one user message (EMULATOR.md "The scripted model") and says how the turn stops. */
export async function runScript(ctx: ModelContext, text: string): Promise<Outcome> {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  // Several /confirm or /custom lines: the calls are made together and the thread waits for all replies.
  if (lines.length > 1 && lines.every((l) => /^\/(confirm|custom)\s/.test(l))) return waitingCalls(ctx, lines.map(parseDirective));
  const d = parseDirective(text.trim());
  switch (d.name) {
    case 'echo':
      return reply(ctx, d.rest);
    case 'long':
      return long(ctx, d.rest);
    case 'slow':
      return slow(ctx, d.rest);
    case 'tool':
      return sandboxTool(ctx, d.rest);
    case 'mcp':
      return mcpTool(ctx, d.rest);
    case 'confirm':
    case 'custom':
      return waitingCalls(ctx, [d]);
    case 'delegate':
      return delegate(ctx, d.rest);
    case 'error':
      return sessionError(ctx, d.rest.trim() || 'internal_error');
    case 'artifact':
      return artifact(ctx, d.rest.trim() || 'artifact.txt');
    default:
      return plain(ctx, text);
  }
}

/** A child thread's work after `/delegate`: one streamed reply. */
export async function childReply(ctx: ModelContext, index: number, stepMs?: number): Promise<void> {
  ctx.emit('agent.model_started', { model: ctx.model });
  await streamText(ctx, 'text', `Thread ${index} finished its part.`, stepMs);
}

function parseDirective(text: string): { name?: string; rest: string } {
  const m = /^\/(echo|long|slow|tool|mcp|confirm|custom|delegate|error|artifact)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], rest: m[2] ?? '' } : { rest: text };
}

async function plain(ctx: ModelContext, text: string): Promise<Outcome> {
  ctx.emit('agent.model_started', { model: ctx.model });
  await streamText(ctx, 'thinking', 'The user wrote a message; I will answer it.');
  await streamText(ctx, 'text', `You said: ${text}`);
  return END_TURN;
}

async function reply(ctx: ModelContext, text: string): Promise<Outcome> {
  ctx.emit('agent.model_started', { model: ctx.model });
  await streamText(ctx, 'text', text);
  return END_TURN;
}

/** Streams `text` word by word as deltas of `kind`, then the complete event. */
async function streamText(ctx: ModelContext, kind: 'text' | 'thinking', text: string, stepMs?: number): Promise<void> {
  const words = text.split(/(?<=\s)/);
  for (let i = 0; i < words.length; i++) {
    await ctx.step(stepMs);
    if (i === 0) ctx.emit(kind === 'text' ? 'agent.message_started' : 'agent.thinking_started');
    ctx.delta({ kind, delta: words[i] });
  }
  if (words.length === 0) ctx.emit(kind === 'text' ? 'agent.message_started' : 'agent.thinking_started');
  ctx.emit(kind === 'text' ? 'agent.message' : 'agent.thinking', { content: [{ type: 'text', text }] });
}

async function long(ctx: ModelContext, arg: string): Promise<Outcome> {
  const n = Number(arg.trim());
  if (!Number.isInteger(n) || n < 1) return sessionError(ctx, 'invalid_request', `/long takes a positive integer, got "${arg}"`);
  ctx.emit('agent.model_started', { model: ctx.model });
  await ctx.step();
  ctx.emit('agent.message_started');
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const part = `chunk${i + 1} `;
    parts.push(part);
    ctx.delta({ kind: 'text', delta: part });
    // Deltas go out in batches so throughput tests are not bound by timer resolution.
    if ((i + 1) % LONG_BATCH === 0) await ctx.step(0);
  }
  ctx.emit('agent.message', { content: [{ type: 'text', text: parts.join('') }] });
  return END_TURN;
}

async function slow(ctx: ModelContext, arg: string): Promise<Outcome> {
  const m = /^(\d+)(?:\s+([\s\S]*))?$/.exec(arg.trim());
  if (!m) return sessionError(ctx, 'invalid_request', `/slow takes MS [TEXT], got "${arg}"`);
  ctx.emit('agent.model_started', { model: ctx.model });
  await streamText(ctx, 'text', m[2] || DEFAULT_SLOW_WORDS, Number(m[1]));
  return END_TURN;
}

function parseCall(rest: string): { name: string; input: unknown } | undefined {
  const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest.trim());
  if (!m) return undefined;
  try {
    return { name: m[1], input: m[2] ? JSON.parse(m[2]) : {} };
  } catch {
    return undefined;
  }
}

/** `agent.tool_use` preceded by its `tool_use` deltas: the same tool_use_id on each, the name on the first (R-EVT-10, R-EVT-12). */
async function toolUse(ctx: ModelContext, name: string, input: unknown, permission: 'allow' | 'ask', mcpServer?: string): Promise<string> {
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

/** `/mcp SERVER TOOL JSON`: a tool of one of the agent's MCP servers, run by the platform (R-EVT-13). */
async function mcpTool(ctx: ModelContext, rest: string): Promise<Outcome> {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(rest.trim());
  const call = m ? parseCall(m[2]) : undefined;
  if (!m || !call) return sessionError(ctx, 'invalid_request', `/mcp takes SERVER TOOL JSON, got "${rest}"`);
  if (!ctx.mcpServers.includes(m[1])) return sessionError(ctx, 'mcp_connection_failed', `the agent has no MCP server named "${m[1]}"`, m[1]);
  ctx.emit('agent.model_started', { model: ctx.model });
  const id = await toolUse(ctx, call.name, call.input, 'allow', m[1]);
  await ctx.step();
  ctx.emit('agent.tool_started', { event_id: id });
  await ctx.step();
  const content = textContent(`${m[1]}.${call.name} ran with ${JSON.stringify(call.input)}`);
  ctx.emit('agent.tool_result', { event_id: id, tool_result: { content, structured_content: content } });
  return reply(ctx, `Tool ${call.name} of ${m[1]} finished.`);
}

const textContent = (text: string) => [{ type: 'text', text }];

async function sandboxTool(ctx: ModelContext, rest: string): Promise<Outcome> {
  const call = parseCall(rest);
  if (!call) return sessionError(ctx, 'invalid_request', `/tool takes NAME JSON, got "${rest}"`);
  ctx.emit('agent.model_started', { model: ctx.model });
  const id = await toolUse(ctx, call.name, call.input, 'allow');
  await runTool(ctx, id, call.name, call.input);
  return reply(ctx, `Tool ${call.name} finished.`);
}

/** Runs an allowed call: on a self-hosted environment a worker answers all but the platform's tools; elsewhere the emulator answers. */
async function runTool(ctx: ModelContext, id: string, name: string, input: unknown): Promise<void> {
  if (ctx.selfHosted && runsOnWorker({ name })) {
    // Awaited before anything else happens: a worker may answer as soon as it sees the call runnable.
    const replied = ctx.awaitReplies([{ id, kind: 'user.tool_result' }]);
    ctx.requestWorker();
    await ctx.step();
    ctx.emit('agent.tool_started', { event_id: id });
    const r = (await replied).get(id)!;
    ctx.emit('agent.tool_result', { event_id: id, tool_result: { content: r.content, structured_content: r.content }, ...(r.is_error ? { is_error: true } : {}) });
    return;
  }
  await ctx.step();
  ctx.emit('agent.tool_started', { event_id: id });
  await ctx.step();
  const content = textContent(`${name} ran with ${JSON.stringify(input)}`);
  ctx.emit('agent.tool_result', { event_id: id, tool_result: { content, structured_content: content } });
}

/** `/confirm` (an always_ask tool) and `/custom` calls, made together; the thread waits for every reply. */
async function waitingCalls(ctx: ModelContext, directives: Array<{ name?: string; rest: string }>): Promise<Outcome> {
  ctx.emit('agent.model_started', { model: ctx.model });
  const calls: Array<{ id: string; kind: ReplyKind; name: string; input: unknown }> = [];
  for (const d of directives) {
    const call = parseCall(d.rest);
    if (!call) return sessionError(ctx, 'invalid_request', `/${d.name} takes NAME JSON, got "${d.rest}"`);
    if (d.name === 'confirm') calls.push({ id: await toolUse(ctx, call.name, call.input, 'ask'), kind: 'user.tool_confirmation', name: call.name, input: call.input });
    else {
      await ctx.step();
      calls.push({ id: ctx.emit('agent.custom_tool_use', { name: call.name, input: call.input }), kind: 'user.custom_tool_result', name: call.name, input: call.input });
    }
  }
  const replies = await ctx.awaitReplies(calls);
  for (const c of calls) {
    const r = replies.get(c.id)!;
    if (c.kind !== 'user.tool_confirmation') continue;
    if (r.result === 'allow') {
      await runTool(ctx, c.id, c.name, c.input);
    } else {
      const content = textContent(r.deny_message ?? 'The user denied this tool call.');
      ctx.emit('agent.tool_result', { event_id: c.id, tool_result: { content, structured_content: content }, is_error: true });
    }
  }
  return reply(ctx, `Done with ${calls.map((c) => c.name).join(', ')}.`);
}

/** `/delegate N [MS]`: N child threads, MS between their deltas (default: the model step). */
async function delegate(ctx: ModelContext, arg: string): Promise<Outcome> {
  const m = /^(\d+)(?:\s+(\d+))?$/.exec(arg.trim());
  const n = Number(m?.[1]);
  if (!m || n < 1 || n > MAX_CHILDREN) return sessionError(ctx, 'invalid_request', `/delegate takes N (1 to ${MAX_CHILDREN}) and an optional MS, got "${arg}"`);
  // Assumption: the scripted model answers in words when it has no delegation tool, as a model would.
  if (!ctx.canDelegate) return reply(ctx, 'I cannot delegate: this session has no sub-agent roster.');
  ctx.emit('agent.model_started', { model: ctx.model });
  await streamText(ctx, 'text', `Delegating to ${n} threads.`);
  await ctx.delegate(n, m[2] === undefined ? undefined : Number(m[2]));
  return reply(ctx, `All ${n} threads finished.`);
}

async function sessionError(ctx: ModelContext, errorType: string, message?: string, mcpServer = 'emulator-mcp'): Promise<Outcome> {
  await ctx.step();
  const mcp = errorType.startsWith('mcp_') ? { mcp_server_name: mcpServer } : {};
  const known = SESSION_ERROR_TYPES.includes(errorType);
  ctx.emit('session.error', { error_type: errorType, message: message ?? `${known ? '' : 'unknown error type; '}error injected by /error ${errorType}`, ...mcp });
  return { type: errorType === 'max_steps' ? 'max_steps' : 'error' };
}

async function artifact(ctx: ModelContext, name: string): Promise<Outcome> {
  ctx.emit('agent.model_started', { model: ctx.model });
  await ctx.step();
  const delivered = ctx.deliverArtifact(name);
  if (!delivered) return sessionError(ctx, 'internal_error', 'artifacts are not available in this emulator build');
  return reply(ctx, `Delivered artifact ${name} (${delivered.id}, version ${delivered.version}).`);
}
