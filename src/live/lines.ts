/** Finished items as terminal lines: messages as text, thinking dimmed, tool calls with name and input, results summarised, errors red. */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Item } from './items';

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
