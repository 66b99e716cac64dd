import type { OutputFormat } from '../config/settings';
import { write, type OutStream } from '../runtime/io';
import { YoungGc } from '../startup/young-gc';
import { renderRecord, renderTable, type Column } from './table';
import { isObject } from '../wire/is-object';
import { escapeControls, escapeJsonControls } from './controls';
import { DEFAULT_LAYOUT, itemAsRow, layoutColumns, type TableLayout } from './layout';
import { showText, type Pager } from './pager';

export interface WriterOptions {
  format: OutputFormat;
  jq?: string;
  color: boolean;
  /** A table's columns and header line; the default columns with a header when absent. */
  layout?: TableLayout;
  /** Where a table or YAML longer than the screen goes (src/output/pager.ts); none off a terminal. */
  pager?: Pager;
}

const FLUSH_BYTES = 64 * 1024;

/** The one writer of command data to stdout, in the chosen format. Messages go elsewhere. */
export class OutputWriter {
  private jqBatch?: Promise<import('./jq').JqBatch>;
  constructor(
    private readonly stdout: OutStream,
    readonly opts: WriterOptions,
  ) {}

  get format(): OutputFormat {
    return this.opts.format;
  }

  /** One object: get, create, update. */
  async item<T>(obj: T | undefined, columns?: Column<T>[]): Promise<void> {
    if (this.opts.jq) return this.jq(json(obj));
    switch (this.opts.format) {
      case 'json':
        return write(this.stdout, this.json(JSON.stringify(obj, null, 2)) + '\n');
      case 'ndjson':
        return write(this.stdout, this.json(JSON.stringify(obj)) + '\n');
      case 'yaml':
        return this.show(await toYaml(obj));
      case 'id':
        return idOf(obj) === undefined ? undefined : write(this.stdout, this.id(obj) + '\n');
      case 'table': {
        const layout = this.layout;
        if (Array.isArray(layout.columns) || (columns && (itemAsRow(layout) || !isObject(obj))))
          return this.show(renderTable([obj as T], layoutColumns(columns ?? [], layout), await this.style()));
        return this.show(isObject(obj) ? renderRecord(obj, await this.style()) : this.json(JSON.stringify(obj)) + '\n');
      }
    }
  }

  private get layout(): TableLayout {
    return this.opts.layout ?? DEFAULT_LAYOUT;
  }

  /** Human text that may be longer than the screen: through the pager on a terminal. */
  private show(text: string): Promise<void> | void {
    return this.opts.pager ? showText(this.stdout, text, this.opts.pager) : write(this.stdout, text);
  }

  /** A list, written item by item where the format allows (constant memory with --all). */
  async list<T>(items: AsyncIterable<T> | Iterable<T>, columns: Column<T>[]): Promise<void> {
    const { format, jq } = this.opts;
    if (jq && format !== 'ndjson') return this.jq(json(await collect(items)));
    if (jq) {
      for await (const it of items) await this.jq(json(it));
      return;
    }
    if (format === 'table') return this.show(renderTable(await collect(items), layoutColumns(columns, this.layout), await this.style()));
    if (format === 'yaml') return this.show(await toYaml(await collect(items)));
    const batch = new Batch(this.stdout);
    if (format === 'json') {
      let first = true;
      for await (const it of items) {
        await batch.add((first ? '[\n' : ',\n') + indent(this.json(JSON.stringify(it, null, 2))));
        first = false;
      }
      await batch.add(first ? '[]\n' : '\n]\n');
    } else {
      for await (const it of items) {
        // An item with no ID yet (a plan's create) has no line: a `null` would be read as an ID by the next command.
        if (format === 'id' && idOf(it) === undefined) continue;
        await batch.add((format === 'id' ? this.id(it) : this.json(JSON.stringify(it))) + '\n');
      }
    }
    await batch.flush();
  }

  /** Human text printed whole (a transcript): through the pager when it is longer than the screen. */
  text(text: string): Promise<void> | void {
    return this.show(text);
  }

  /** Text exactly as received (svc api). */
  async raw(text: string): Promise<void> {
    if (this.opts.jq) {
      try {
        JSON.parse(text);
      } catch {
        return write(this.stdout, text);
      }
      return this.jq(text);
    }
    return write(this.stdout, text.endsWith('\n') || text === '' ? text : text + '\n');
  }

  /**
   * Everything the command prints has gone out (`--jq` gathers values into batches). The command's runner calls
   * this when the command ends; an error of the jq expression is thrown here at the latest.
   */
  async end(): Promise<void> {
    if (this.jqBatch) await (await this.jqBatch).flush();
  }

  /** One value through --jq: queued into the current batch, waiting only when stdout or the batch is full. */
  private async jq(jsonText: string): Promise<void> {
    this.jqBatch ??= import('./jq').then(async ({ compileJq, JqBatch }) => new JqBatch(await compileJq(this.opts.jq!), this.stdout));
    await (await this.jqBatch).add(jsonText);
  }

  /** JSON with the control characters JSON.stringify leaves raw escaped (the same value), whatever reads it: a pipe often ends on a terminal. */
  private json(text: string): string {
    return escapeJsonControls(text);
  }

  private id(o: unknown): string {
    return escapeControls(idOf(o) ?? '');
  }

  private async style() {
    // `-o wide` and custom columns print whole values and let the terminal wrap, as kubectl's (docs/decisions/tables.md).
    const width = this.stdout.isTTY && this.layout.columns === 'default' ? this.stdout.columns : undefined;
    const headers = this.layout.headers;
    if (!this.opts.color) return { width, headers, header: (s: string) => s };
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    return { width, headers, header: (s: string) => chalk.bold(s) };
  }
}

/** Buffers small writes into ~64 KiB chunks, honouring backpressure. */
export class Batch {
  private parts: string[] = [];
  private size = 0;
  private readonly relief = new YoungGc();
  constructor(private readonly stream: OutStream) {}
  async add(s: string): Promise<void> {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= FLUSH_BYTES) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.parts.length) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.relief.bytes(chunk.length);
    await write(this.stream, chunk);
  }
}

async function toYaml(v: unknown): Promise<string> {
  const { yamlText } = await import('./yaml');
  return yamlText(v);
}

/** JSON text for jq: `undefined` (no body) is jq's null. */
function json(v: unknown): string {
  return JSON.stringify(v) ?? 'null';
}

function idOf(o: unknown): string | undefined {
  return isObject(o) && o.id !== undefined && o.id !== null ? String(o.id) : undefined;
}

function indent(s: string): string {
  return '  ' + s.replace(/\n/g, '\n  ');
}

async function collect<T>(it: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
