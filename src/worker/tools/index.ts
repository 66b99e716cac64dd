import { bash } from './bash';
import type { ToolContext } from './context';
import { edit } from './edit';
import { glob } from './glob';
import { grep } from './grep';
import { read } from './read';
import { failed, ToolError, type Input, type ToolResult } from './result';
import { write } from './write';

export type { ToolContext } from './context';
export type { ToolResult } from './result';

type Tool = (input: Input, ctx: ToolContext) => Promise<ToolResult>;

/** The sandbox tools of the built-in toolset (docs/service.md: agents, built-in names) that run on a worker. */
const SANDBOX_TOOLS: Readonly<Record<string, Tool>> = { bash, read, write, edit, glob, grep };
export const SANDBOX_TOOL_NAMES: readonly string[] = Object.keys(SANDBOX_TOOLS);

/** How long a stopped tool may take to answer for itself (bash reports the output it had) before it is answered for. */
const SETTLE_MS = 1000;

/**
 * Runs one call; every failure, an unknown tool included, becomes an error result. A call never outlives its
 * deadline (`bash`: its own timeout; the others: `toolTimeoutMs`) nor a cancel: whatever the tool is stuck on,
 * the answer comes, so the row's lease and the worker's shutdown never wait on a tool.
 */
export async function runTool(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const tool = Object.hasOwn(SANDBOX_TOOLS, name) ? SANDBOX_TOOLS[name] : undefined;
  if (!tool) return failed(`unknown tool "${name}": this worker runs ${SANDBOX_TOOL_NAMES.join(', ')}`);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return failed(`${name}: the input must be a JSON object`);
  const deadline = new AbortController();
  const signal = AbortSignal.any([ctx.signal, deadline.signal]);
  const timer = tool === bash ? undefined : setTimeout(() => deadline.abort(), ctx.toolTimeoutMs);
  const result = tool(input as Input, { ...ctx, signal }).catch((e: unknown) => errorResult(name, e));
  try {
    if (!(await Promise.race([result.then(() => false), stopped(signal)]))) return await result;
    const late = await Promise.race([result, delay(SETTLE_MS)]);
    if (deadline.signal.aborted)
      return failed(`${name}: did not finish within its deadline of ${ctx.toolTimeoutMs} ms and was stopped${late ? `: ${text(late)}` : ''}`);
    return late ?? failed(`${name}: cancelled: the worker stopped this call`);
  } finally {
    clearTimeout(timer);
  }
}

function errorResult(name: string, e: unknown): ToolResult {
  if (e instanceof ToolError) return failed(`${name}: ${e.message}`);
  const err = e as NodeJS.ErrnoException;
  return failed(`${name} failed: ${err.code ? `${err.code} ` : ''}${err.message}`);
}

const text = (r: ToolResult) => r.content.map((c) => c.text).join('');

/** Resolves true once `signal` aborts (never resolves otherwise). */
const stopped = (signal: AbortSignal) =>
  new Promise<true>((resolve) => (signal.aborted ? resolve(true) : signal.addEventListener('abort', () => resolve(true), { once: true })));

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref());
