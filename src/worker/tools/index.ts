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

/** The sandbox tools of the built-in toolset (API-NOTES: agents, built-in names) that run on a worker. */
const SANDBOX_TOOLS: Readonly<Record<string, Tool>> = { bash, read, write, edit, glob, grep };

/** Runs one call; every failure, an unknown tool included, becomes an error result. */
export async function runTool(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const tool = Object.hasOwn(SANDBOX_TOOLS, name) ? SANDBOX_TOOLS[name] : undefined;
  if (!tool) return failed(`unknown tool "${name}": this worker runs ${Object.keys(SANDBOX_TOOLS).join(', ')}`);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return failed(`${name}: the input must be a JSON object`);
  try {
    return await tool(input as Input, ctx);
  } catch (e) {
    if (e instanceof ToolError) return failed(`${name}: ${e.message}`);
    const err = e as NodeJS.ErrnoException;
    return failed(`${name} failed: ${err.code ? `${err.code} ` : ''}${err.message}`);
  }
}
