import { UsageError } from '../runtime/errors';
import { write, type OutStream } from '../runtime/io';
import { YoungGc } from '../startup/young-gc';
import { applyHeavyRunFlags } from '../startup/v8-flags';

/** jq-web's interface: one call is one `jq FLAGS FILTER` over the input text (jq's own C code, as WebAssembly). */
interface JqWeb {
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}

/** The most a batch holds: one jq run costs ~2 ms however small its input, each value ~20 µs more. */
const BATCH_VALUES = 1000;
const BATCH_CHARS = 256 * 1024;
/** A batch that stops growing is filtered this soon, so a quiet tail still prints each event promptly. */
const IDLE_FLUSH_MS = 5;

let engine: Promise<JqWeb> | undefined;
const programs = new Map<string, Promise<JqProgram>>();

/**
 * `--jq EXPR`, compiled once per process (the command's start compiles it before any request, the writer reuses it).
 * A syntax error or an unknown function is a UsageError.
 */
export function compileJq(expr: string): Promise<JqProgram> {
  let p = programs.get(expr);
  if (!p) {
    p = JqProgram.compile(expr);
    programs.set(expr, p);
  }
  return p;
}

/**
 * A jq filter with the output of `gh --jq`: strings raw, everything else compact JSON, one result a line.
 * Values are fed to jq as a stream of inputs, many per run, each filtered on its own as `jq` does with
 * several inputs: a run re-compiles jq's builtins, so one run per value would cost ~2 ms each.
 */
export class JqProgram {
  /** How many values one run takes: one for a program that reads further inputs itself (`input`, `inputs`). */
  readonly batchValues: number;
  readonly batchChars = BATCH_CHARS;
  private readonly filter: string;

  /** Starts the line that reports an error; random, so no value from the service can forge one. */
  private readonly mark = `\u001esvc-jq-error-${Math.random().toString(36).slice(2)}:`;

  private constructor(
    private readonly jq: JqWeb,
    expr: string,
  ) {
    this.batchValues = /\binputs?\b/.test(expr) ? 1 : BATCH_VALUES;
    // The newline ends a trailing comment. An error stops this input's results, as in jq, and comes out as one
    // marked line, so the results before it are kept and the rest of the batch is not filtered.
    this.filter = `try (${expr}\n) catch (${JSON.stringify(this.mark)} + tojson)`;
  }

  static async compile(expr: string): Promise<JqProgram> {
    const jq = await load();
    try {
      // Compiled, never run: `if false` keeps the expression from seeing any input.
      run(jq, 'null', `if false then (${expr}\n) else empty end`, ['-n']);
    } catch (wrapped) {
      // jq's message about the expression alone names the right line and token (it fails to compile too).
      run(jq, 'null', expr, ['-n']);
      throw wrapped;
    }
    return new JqProgram(jq, expr);
  }

  /** Filters each JSON text as its own input: what jq prints for them, and the first error, after which it stopped. */
  run(jsonTexts: string[]): { text: string; error?: UsageError } {
    const text = run(this.jq, jsonTexts.join('\n'), this.filter, ['-r', '-c']);
    const at = text.indexOf(this.mark);
    if (at < 0) return { text };
    const end = text.indexOf('\n', at);
    const thrown = JSON.parse(text.slice(at + this.mark.length, end < 0 ? undefined : end)) as unknown;
    return { text: text.slice(0, at), error: new UsageError(`--jq: ${typeof thrown === 'string' ? thrown : `${JSON.stringify(thrown)} (not a string)`}`) };
  }
}

/**
 * The values a command prints under --jq, gathered into batches for one jq run each and written to stdout in
 * order. `add` returns a promise only when the caller must wait (a full batch); `flush` prints what is left. An
 * error of the expression stops the filtering: every later call rejects with it.
 */
export class JqBatch {
  private texts: string[] = [];
  private chars = 0;
  private timer?: NodeJS.Timeout;
  private failed?: UsageError;
  private readonly relief = new YoungGc();

  constructor(
    private readonly program: JqProgram,
    private readonly stdout: OutStream,
  ) {}

  add(jsonText: string): Promise<void> | undefined {
    if (this.failed) return Promise.reject(this.failed);
    this.texts.push(jsonText);
    this.chars += jsonText.length;
    if (this.texts.length >= this.program.batchValues || this.chars >= this.program.batchChars) return this.flush();
    // A failure here is kept for the next add or flush, which reject with it.
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), IDLE_FLUSH_MS);
    return undefined;
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const texts = this.texts;
    if (texts.length && !this.failed) {
      this.relief.bytes(this.chars);
      this.texts = [];
      this.chars = 0;
      // Run and write in one synchronous step: batches reach stdout in the order they were filled.
      const { text, error } = this.program.run(texts);
      this.failed = error;
      if (text) await write(this.stdout, text);
    }
    if (this.failed) throw this.failed;
  }
}

/** Set by the build to the copy of jq-web inside dist/ (scripts/bundle.mjs); unset when the sources run as they are. */
declare const SVC_JQ_MODULE: string | undefined;
/** Set by the single executable's build, whose one file holds jq-web (its wasm an asset of the executable). */
declare const SVC_JQ_SEA: boolean | undefined;

/** jq-web, loaded on the first --jq. Its CommonJS export is a promise of the module: required, not imported. */
function load(): Promise<JqWeb> {
  // Before jq's WebAssembly compiles: Liftoff alone (startup/v8-flags.ts).
  applyHeavyRunFlags();
  if (typeof SVC_JQ_SEA === 'boolean' && SVC_JQ_SEA) {
    // A require the build resolves into the bundle; import() would resolve to a namespace whose `then` is the promise's.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    engine ??= require('jq-web') as Promise<JqWeb>;
  } else {
    const module = typeof SVC_JQ_MODULE === 'string' ? SVC_JQ_MODULE : 'jq-web';
    engine ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)(module) as Promise<JqWeb>;
  }
  return engine;
}

/**
 * One jq run. jq-web throws on a non-zero exit (a compile error, halt_error, input it cannot parse) and passes
 * anything else jq writes to stderr (`debug`, `stderr`) to console.warn: that goes nowhere, as stdout is data.
 */
function run(jq: JqWeb, input: string, filter: string, flags: string[]): string {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    const out = jq.raw(input, filter, flags);
    // jq-web drops the last newline of what jq printed; no output at all is undefined.
    return out === undefined ? '' : out + '\n';
  } catch (e) {
    throw new UsageError(`--jq: ${jqMessage(e)}`);
  } finally {
    console.warn = warn;
  }
}

/** The first line jq wrote to stderr, without its `jq: error: ` prefix. */
function jqMessage(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  const line = (err.stderr ?? err.message ?? String(e)).split('\n').find((l) => l.trim() !== '' && !l.startsWith('Non-zero exit code')) ?? 'jq failed';
  return line
    .replace(/^jq: (error: )?/, '')
    .replace(' (Unix shell quoting issues?)', '')
    .replace(/ at <top-level>, line (\d+):$/, ' (line $1)')
    .trim();
}
