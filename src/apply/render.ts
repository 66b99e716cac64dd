import type { Ctx } from '../runtime/context';
import { escapeControls } from '../output/controls';
import { renderChange, type Change } from './diff';
import type { Action, Entry } from './types';

export async function painter(ctx: Ctx): Promise<(op: Change['op'], s: string) => string> {
  if (!ctx.useColor(ctx.io.stdout)) return (_op, s) => s;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (op, s) => (op === 'add' ? chalk.green(s) : op === 'remove' ? chalk.red(s) : chalk.yellow(s));
}

const SIGN: Record<Action, string> = { created: '+', updated: '~', unchanged: '=', archived: '-' };
const OP: Record<Action, Change['op']> = { created: 'add', updated: 'change', unchanged: 'change', archived: 'remove' };

const count = (entries: Entry[], action: Action) => entries.filter((e) => e.action === action).length;

/** `+ Agent reviewer`, its field differences indented below, notes; then the totals and, with --prune, the set it prunes. */
export async function planText(ctx: Ctx, entries: Entry[], set: string | undefined, prune = false): Promise<string> {
  const paint = await painter(ctx);
  const lines: string[] = [];
  for (const e of entries) {
    const head = `${SIGN[e.action]} ${e.kind} ${e.name}${e.id ? ` (${e.id})` : ''}${e.action === 'archived' ? `: archive, no longer in the files of set "${set}"` : ''}`;
    // Names, IDs and values come from files and the service: their control characters are shown, never obeyed.
    const shown = escapeControls(head);
    lines.push(e.action === 'unchanged' ? shown : paint(OP[e.action], shown));
    if (e.action === 'created' || e.action === 'updated') for (const c of e.diff) lines.push('    ' + paint(c.op, escapeControls(renderChange(c))));
    for (const n of e.notes) lines.push(`    note: ${escapeControls(n)}`);
  }
  const totals = [
    `${count(entries, 'created')} to create`,
    `${count(entries, 'updated')} to update`,
    ...(count(entries, 'archived') ? [`${count(entries, 'archived')} to archive`] : []),
    `${count(entries, 'unchanged')} unchanged`,
  ];
  const pruning = prune && set !== undefined ? `; --prune archives only what set "${set}" holds` : '';
  lines.push(escapeControls(`plan${set !== undefined ? ` for set "${set}"` : ''}: ${totals.join(', ')}${pruning}`));
  return lines.join('\n') + '\n';
}

/** After the writes: `applied: 2 created, 1 updated`. */
export function appliedText(entries: Entry[]): string {
  const parts = (['created', 'updated', 'archived'] as const).flatMap((a) => (count(entries, a) ? [`${count(entries, a)} ${a}`] : []));
  return parts.length ? `applied: ${parts.join(', ')}\n` : 'applied: nothing to change\n';
}

/** What `-o json|ndjson|yaml` prints per entry. */
export function entryView(e: Entry, dryRun: boolean) {
  return { kind: e.kind, name: e.name, action: e.action, id: e.id, dry_run: dryRun, diff: e.diff, notes: e.notes };
}

export const changed = (entries: Entry[]): boolean => entries.some((e) => e.action !== 'unchanged');
