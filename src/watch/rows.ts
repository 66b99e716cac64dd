import type { Obj } from '../api/resources';
import type { Ctx } from '../runtime/context';
import { InterruptedError } from '../runtime/errors';
import { stoppedByTerm, write } from '../runtime/io';
import { escapeControls, escapeJsonControls } from '../output/controls';
import type { TableLayout } from '../output/layout';
import { fitWidths, truncate, type Column } from '../output/table';
import { padToWidth } from '../output/width';
import { yamlText } from '../output/yaml';
import { shortAge } from '../text/duration';
import { isPassing, watch, watchRetryMs, type WatchOptions, type WatchType } from './list-watch';

/** One column of the watch rows: padded to `width` (the last is not), between EVENT and AGE. */
export interface WatchCell {
  header: string;
  width: number;
  get: (o: Obj) => unknown;
}

/** A table column as a watch cell: an ID's width, else at least 16. */
export const watchCell = (c: Column): WatchCell => ({ header: c.header, width: c.header === 'ID' ? 30 : Math.max(16, c.header.length + 1), get: c.get });

export type WatchViewOptions = Pick<WatchOptions, 'list' | 'query' | 'match' | 'includeArchived' | 'intervalMs' | 'incremental' | 'version'> & {
  /** The rows' cells under `-o table`. */
  cells: WatchCell[];
  /** The resource's table columns: `-o wide` adds the wide ones to the cells. */
  columns?: Column[];
  /** Ends the watch with exit 0 (`--timeout`). */
  timeoutMs?: number;
  /** Runs before each row is drawn (the session rows read agent names). */
  beforeRow?: (o: Obj) => Promise<void>;
};

const EVENT_WIDTH = 9;
/** `shortAge`'s longest: `364d`. */
const AGE_WIDTH = 4;

/**
 * A watched list: kubectl-style rows with an age column on a terminal, NDJSON `{"type","object"}` off it (each
 * through the writer with --jq). A failure the watch outlives (no answer, a 429, a 5xx) is one stderr line and
 * another try, until `--timeout`. Ctrl-C is exit 130; `--timeout` and SIGTERM end it with exit 0.
 */
export async function runWatchView(ctx: Ctx, o: WatchViewOptions): Promise<void> {
  const { timeoutMs, beforeRow, ...rest } = o;
  const layout = ctx.settings.table;
  const cells = rowCells(layout, o.cells, o.columns);
  // Custom columns are the user's whole row after EVENT; the default and wide rows end in AGE.
  const withAge = !Array.isArray(layout.columns);
  const timer = new AbortController();
  const t = timeoutMs === undefined ? undefined : setTimeout(() => timer.abort(), timeoutMs);
  const signal = AbortSignal.any([timer.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const rows = ctx.format === 'table' && !ctx.settings.jq;
  const headers = ['EVENT', ...cells.map((c) => c.header), ...(withAge ? ['AGE'] : [])];
  // On a terminal the default rows fit its width and never wrap (docs/decisions/tables.md); -o wide and custom
  // columns print whole values, as the tables do.
  const fitted = ctx.io.stdout.isTTY && ctx.io.stdout.columns && layout.columns === 'default';
  const widths = [EVENT_WIDTH, ...cells.map((c) => c.width), ...(withAge ? [AGE_WIDTH] : [])];
  if (fitted) widths.splice(0, widths.length, ...fitWidths(widths, headers, ctx.io.stdout.columns!, 1));
  const row = (values: string[]) => watchRow(values, widths, Boolean(fitted));
  if (rows && layout.headers) await write(ctx.io.stdout, row(headers));
  const emit = async (type: WatchType, s: Obj) => {
    if (ctx.settings.jq) return ctx.out.item({ type, object: s });
    // -q and -o yaml as kubectl's -w -o name|yaml: the ID of each change, or each change as a YAML document.
    if (ctx.format === 'id') return write(ctx.io.stdout, escapeControls(String(s.id ?? '')) + '\n');
    if (ctx.format === 'yaml') return write(ctx.io.stdout, `---\n${await yamlText({ type, object: s })}`);
    if (!rows) return write(ctx.io.stdout, escapeJsonControls(JSON.stringify({ type, object: s })) + '\n');
    await beforeRow?.(s);
    const age = typeof s.created_at === 'string' ? shortAge(ctx.now() - Date.parse(s.created_at)) : '';
    const values = cells.map((c) => watchText(c.get(s)));
    await write(ctx.io.stdout, row([type, ...values, ...(withAge ? [age] : [])].map((x) => escapeControls(x))));
  };
  const failed = (e: unknown, attempt: number) => {
    if (!isPassing(e)) throw e;
    const wait = watchRetryMs(e, attempt, Math.random);
    void ctx.msg(`reconnecting (attempt ${attempt}) in ${Math.max(1, Math.round(wait / 1000))}s: ${(e as Error).message}`);
    return wait;
  };
  try {
    await watch({ ...rest, signal, sleep: ctx.sleep, now: ctx.now, emit, failed });
  } finally {
    clearTimeout(t);
  }
  if (ctx.io.signal?.aborted && !stoppedByTerm(ctx.io.signal)) throw new InterruptedError();
}

/** The cells of a watch row under the table's layout. */
function rowCells(layout: TableLayout, cells: WatchCell[], columns: Column[] = []): WatchCell[] {
  if (Array.isArray(layout.columns)) return layout.columns.map(watchCell);
  return layout.columns === 'wide' ? [...cells, ...columns.filter((c) => c.wide).map(watchCell)] : cells;
}

/** A cell's text: an object (a custom column's path may end at one) as JSON. */
const watchText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? ''));

/** A row of cells padded to their widths; `cut`: each cut to its width too (the last column included), so the row fits. */
function watchRow(cells: string[], widths: number[], cut: boolean): string {
  return (
    cells
      .map((c, i) => (i < widths.length ? padToWidth(cut ? truncate(c, widths[i]) : c, i === cells.length - 1 ? 0 : widths[i]) : c))
      .join(' ')
      .trimEnd() + '\n'
  );
}
