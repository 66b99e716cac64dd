/** Finished items as terminal lines: messages as text, thinking dimmed, tool calls with name and input, results summarised, errors red. */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Item } from './items';
import { passesFilter } from './reducer';

export type Paint = ChalkInstance;

/** Colours when the terminal (and --no-color / NO_COLOR) allow them. */
export const paint = (color: boolean): Paint => new Chalk({ level: color ? 1 : 0 });

export function itemLines(item: Item, c: Paint): string {
  const tag = item.thread ? c.cyan(`[${item.thread}] `) : '';
  const text = item.text ?? '';
  switch (item.kind) {
    case 'message':
      return tag + text;
    case 'thinking':
      return tag + c.dim(text);
    case 'user':
      return tag + c.green.bold('you› ') + text;
    case 'tool_use':
    case 'custom_tool_use':
      return `${tag}${c.yellow(item.head)} ${text}`;
    case 'tool_result':
    case 'reply': {
      const line = `↳ ${item.head}: ${text}`;
      return tag + (item.error ? c.red(line) : c.dim(line));
    }
    case 'error':
      return tag + c.red(`${item.head}: ${text}`);
    case 'gap':
      return c.yellow(`… ${text} ${item.head}`);
    case 'filter':
      return c.dim(`── ${item.head} ──`);
    case 'control':
      return item.error ? c.red(`● ${item.head}`) : c.blue(`● ${item.head}`);
    default: {
      const line = `${item.head}${text ? `: ${text}` : ''}`;
      return tag + (item.error ? c.red(line) : c.dim(line));
    }
  }
}

/**
 * The lines of the items after `after`, each through `line` (undefined writes none): quiet items are left out, and
 * the thread filter is the one they were received under (`filter` at the first, each marker switching it).
 */
export function transcriptLines(items: readonly Item[], after: number, filter: string, line: (i: Item) => string | undefined): string[] {
  const lines: string[] = [];
  let writing = filter;
  for (const i of items) {
    if (i.seq <= after) continue;
    if (i.kind === 'filter') writing = i.text ?? writing;
    if (i.quiet || (i.kind !== 'filter' && !passesFilter(writing, i.threadId))) continue;
    const text = line(i);
    if (text !== undefined) lines.push(text);
  }
  return lines;
}
