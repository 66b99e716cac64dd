import type { DeltaEvent } from '../../wire/events';
import { runsOnWorker } from '../../wire/tools';
import { mcpFail, mcpTool } from './mcp';
import type { SessionPlatform } from './platform';
import { END_TURN, modelRequest, parseCall, reply, sessionError, streamText, textContent, toolUse, type Outcome } from './steps';

/** Which user reply an awaited call takes. */
export type ReplyKind = 'user.tool_confirmation' | 'user.custom_tool_result' | 'user.tool_result';
export type ReplyData = Record<string, any>;

/** What the scripted model may do on one thread; the session runtime implements it. */
export interface ModelContext {
  readonly model: string;
  /** The environment is self-hosted: sandbox tools run on a worker. */
  readonly selfHosted: boolean;
  /** The session has a sub-agent roster: without one it has no orchestration tools. */
  readonly canDelegate: boolean;
  /** Names of the MCP servers of the session's effective agent. */
  readonly mcpServers: readonly string[];
  /** The `tools` entries of the session's effective agent (toolsets and custom tools). */
  readonly tools: readonly unknown[];
  /** The session's MCP connections and tool loading, which outlive a turn. */
  readonly platform: SessionPlatform;
  /** Waits one model step (or `ms`), then throws if the execution was cancelled: a step boundary. */
  step(ms?: number): Promise<void>;
  emit(type: string, data?: Record<string, unknown>, id?: string): string;
  delta(data: DeltaEvent['data']): void;
  newEventId(): string;
  /** Parks the thread until every call has its reply. */
  awaitReplies(calls: Array<{ id: string; kind: ReplyKind }>): Promise<Map<string, ReplyData>>;
  /** A sandbox call awaits a worker: make sure the session has a work row. */
  requestWorker(): void;
  /** Starts N child threads, each running `childReply` (with `stepMs` between deltas, or `work`), and waits for them all. */
  delegate(n: number, stepMs?: number, work?: string): Promise<void>;
  deliverArtifact(name: string): { id: string; version: number } | undefined;
}

const DEFAULT_SLOW_WORDS = Array.from({ length: 50 }, (_, i) => `word${i + 1}`).join(' ');
const MAX_CHILDREN = 20;
const LONG_BATCH = 200;

/** Runs the script of one user message (docs/behaviour.md "The emulator") and says how the turn stops. */
export async function runScript(ctx: ModelContext, text: string): Promise<Outcome> {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
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
    case 'mcp-fail':
      return mcpFail(ctx, d.rest);
    case 'nostream':
      return nostream(ctx, d.rest);
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

/** A child thread's work after `/delegate`: one streamed reply, or the `/confirm NAME JSON` it was given (a call in a child thread). */
export async function childReply(ctx: ModelContext, index: number, stepMs?: number, work?: string): Promise<void> {
  if (work) {
    await waitingCalls(ctx, [parseDirective(work)]);
    return;
  }
  modelRequest(ctx);
  await streamText(ctx, 'text', `Thread ${index} finished its part.`, stepMs);
}

function parseDirective(text: string): { name?: string; rest: string } {
  const m = /^\/(echo|long|slow|tool|mcp-fail|mcp|nostream|confirm|custom|delegate|error|artifact)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], rest: m[2] ?? '' } : { rest: text };
}

async function plain(ctx: ModelContext, text: string): Promise<Outcome> {
  modelRequest(ctx);
  await streamText(ctx, 'thinking', 'The user wrote a message; I will answer it.');
  await streamText(ctx, 'text', `You said: ${text}`);
  return END_TURN;
}

async function long(ctx: ModelContext, arg: string): Promise<Outcome> {
  const n = Number(arg.trim());
  if (!Number.isInteger(n) || n < 1) return sessionError(ctx, 'invalid_request', `/long takes a positive integer, got "${arg}"`);
  modelRequest(ctx);
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
  modelRequest(ctx);
  await streamText(ctx, 'text', m[2] || DEFAULT_SLOW_WORDS, Number(m[1]));
  return END_TURN;
}

/**
 * `/nostream TEXT`: a non-streaming model call. The complete thinking and message come with no deltas and
 * neither `agent.thinking_started` nor `agent.message_started`.
 */
async function nostream(ctx: ModelContext, text: string): Promise<Outcome> {
  modelRequest(ctx);
  await ctx.step();
  ctx.emit('agent.thinking', { content: textContent('The user asked for a reply without streaming.') });
  ctx.emit('agent.message', { content: textContent(text) });
  return END_TURN;
}

async function sandboxTool(ctx: ModelContext, rest: string): Promise<Outcome> {
  const call = parseCall(rest);
  if (!call) return sessionError(ctx, 'invalid_request', `/tool takes NAME JSON, got "${rest}"`);
  modelRequest(ctx);
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
    ctx.emit('agent.tool_result', {
      event_id: id,
      tool_result: { content: r.content, structured_content: r.content },
      ...(r.is_error ? { is_error: true } : {}),
    });
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
  modelRequest(ctx);
  const calls: Array<{ id: string; kind: ReplyKind; name: string; input: unknown }> = [];
  for (const d of directives) {
    const call = parseCall(d.rest);
    if (!call) return sessionError(ctx, 'invalid_request', `/${d.name} takes NAME JSON, got "${d.rest}"`);
    if (d.name === 'confirm')
      calls.push({ id: await toolUse(ctx, call.name, call.input, 'ask'), kind: 'user.tool_confirmation', name: call.name, input: call.input });
    else {
      await ctx.step();
      calls.push({
        id: ctx.emit('agent.custom_tool_use', { name: call.name, input: call.input }),
        kind: 'user.custom_tool_result',
        name: call.name,
        input: call.input,
      });
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

/** `/delegate N [MS] [/confirm NAME JSON]`: N child threads, MS between their deltas (default: the model step), each asking that confirmation instead of replying. */
async function delegate(ctx: ModelContext, arg: string): Promise<Outcome> {
  const m = /^(\d+)(?:\s+(\d+))?(?:\s+(\/confirm\s[\s\S]+))?$/.exec(arg.trim());
  const n = Number(m?.[1]);
  if (!m || n < 1 || n > MAX_CHILDREN) return sessionError(ctx, 'invalid_request', `/delegate takes N (1 to ${MAX_CHILDREN}) and an optional MS, got "${arg}"`);
  // Assumption: the scripted model answers in words when it has no delegation tool, as a model would.
  if (!ctx.canDelegate) return reply(ctx, 'I cannot delegate: this session has no sub-agent roster.');
  modelRequest(ctx);
  await streamText(ctx, 'text', `Delegating to ${n} threads.`);
  await ctx.delegate(n, m[2] === undefined ? undefined : Number(m[2]), m[3]);
  return reply(ctx, `All ${n} threads finished.`);
}

async function artifact(ctx: ModelContext, name: string): Promise<Outcome> {
  modelRequest(ctx);
  await ctx.step();
  const delivered = ctx.deliverArtifact(name);
  if (!delivered) return sessionError(ctx, 'internal_error', 'artifacts are not available in this emulator build');
  return reply(ctx, `Delivered artifact ${name} (${delivered.id}, version ${delivered.version}).`);
}
