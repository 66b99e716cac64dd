/**
 * Matching lines against a pattern: a fixed string (`-i` folds case), or with `-E` a JavaScript regular expression
 * run under a time limit per line (docs/decisions/grep-regex.md). A regular expression cannot be stopped from the
 * outside once it runs, except by V8's own termination, which `vm` gives with `timeout`: lines are matched in
 * batches in a vm context whose whole batch must finish within one line's limit (ordinary lines take microseconds);
 * a batch that does not is matched again line by line, each under the limit, and a line that still runs out is
 * reported and counted as no match. So a catastrophic pattern costs at most the limit per line it trips on.
 */
import { createContext, Script, type Context } from 'node:vm';
import { UsageError } from '../runtime/errors';

/** [start, end) of each match in a line. */
export type Ranges = Array<[number, number]>;

export interface MatcherOptions {
  ignoreCase: boolean;
  regex: boolean;
  /** The time limit per line for a regular expression, ms. */
  lineLimitMs?: number;
}

export const LINE_LIMIT_MS = 250;

export interface Matcher {
  /** The match ranges of each line (undefined: no match). */
  match(lines: string[]): Array<Ranges | undefined>;
  /** Lines given up on (the time limit), so far. */
  readonly timedOut: number;
}

export function makeMatcher(pattern: string, o: MatcherOptions): Matcher {
  if (pattern === '') throw new UsageError('the pattern is empty');
  return o.regex ? new RegexMatcher(pattern, o) : new FixedMatcher(pattern, o.ignoreCase);
}

class FixedMatcher implements Matcher {
  readonly timedOut = 0;
  private readonly needle: string;
  constructor(
    pattern: string,
    private readonly fold: boolean,
  ) {
    this.needle = fold ? pattern.toLowerCase() : pattern;
  }
  match(lines: string[]): Array<Ranges | undefined> {
    return lines.map((line) => {
      const hay = this.fold ? line.toLowerCase() : line;
      let i = hay.indexOf(this.needle);
      if (i < 0) return undefined;
      const out: Ranges = [];
      // toLowerCase keeps the length of almost all text; where it does not, the ranges are approximate.
      while (i >= 0) {
        out.push([i, i + this.needle.length]);
        i = hay.indexOf(this.needle, i + this.needle.length);
      }
      return out;
    });
  }
}

/** Runs in the context: every line's match ranges, or null. */
const BATCH_SCRIPT = new Script(`(() => {
  const out = [];
  for (const line of lines) {
    re.lastIndex = 0;
    let m = re.exec(line);
    if (m === null) { out.push(null); continue; }
    const r = [];
    while (m !== null) {
      r.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) re.lastIndex++;
      m = re.exec(line);
    }
    out.push(r);
  }
  return JSON.stringify(out);
})()`);

class RegexMatcher implements Matcher {
  timedOut = 0;
  private readonly ctx: Context;
  private readonly limit: number;
  constructor(pattern: string, o: MatcherOptions) {
    let re: RegExp;
    try {
      re = new RegExp(pattern, o.ignoreCase ? 'gi' : 'g');
    } catch (e) {
      throw new UsageError(`-E: not a regular expression: ${(e as Error).message}`);
    }
    this.limit = o.lineLimitMs ?? LINE_LIMIT_MS;
    this.ctx = createContext({ re, lines: [] as string[] });
  }

  match(lines: string[]): Array<Ranges | undefined> {
    const whole = this.run(lines);
    if (whole) return whole;
    return lines.map((l) => {
      const one = this.run([l]);
      if (!one) this.timedOut++;
      return one?.[0];
    });
  }

  /** The batch's ranges, or undefined when it ran out of time. */
  private run(lines: string[]): Array<Ranges | undefined> | undefined {
    this.ctx.lines = lines;
    try {
      const out = JSON.parse(BATCH_SCRIPT.runInContext(this.ctx, { timeout: this.limit }) as string) as Array<Ranges | null>;
      return out.map((r) => r ?? undefined);
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
      throw e;
    }
  }
}
