/** What a sandbox tool answers: the content of `user.tool_result` (docs/service.md: event payloads). */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  is_error?: boolean;
}

/** A tool call that cannot be carried out: answered as an error result, never a crash. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export const ok = (text: string): ToolResult => ({ content: [{ type: 'text', text }] });
export const failed = (text: string): ToolResult => ({ content: [{ type: 'text', text }], is_error: true });

export type Input = Record<string, unknown>;

export function str(input: Input, key: string): string {
  const v = input[key];
  if (typeof v !== 'string') throw new ToolError(`input.${key} must be a string`);
  return v;
}

export function optStr(input: Input, key: string): string | undefined {
  return input[key] === undefined || input[key] === null ? undefined : str(input, key);
}

export function optInt(input: Input, key: string, min: number): number | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new ToolError(`input.${key} must be an integer of at least ${min}`);
  return v;
}

/** Keeps the head of a long text and says how much was cut, so the model knows the output is partial. */
export function capText(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : truncated(text.slice(0, maxChars), text.length - maxChars);
}

export const truncated = (head: string, more: number): string => `${head}\n[output truncated: ${more} more characters]`;
