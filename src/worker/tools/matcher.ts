import { Worker } from 'node:worker_threads';
import { ToolError } from './result';

/**
 * Runs in the worker thread: the lines of each text that the pattern matches. A regular expression can backtrack
 * for longer than the universe lasts; on its own thread it can be stopped, and the worker's event loop (its
 * heartbeats) runs on meanwhile.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.pattern);
parentPort.on('message', ({ text, limit }) => {
  const lines = text.split('\\n');
  const hits = [];
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i])) continue;
    count++;
    if (hits.length < limit) hits.push(i);
  }
  parentPort.postMessage({ hits, count });
});
`;

export interface Matches {
  /** Indexes (0-based) of the first `limit` matching lines. */
  hits: number[];
  count: number;
}

/** A pattern matched on a thread of its own; `signal` (a deadline, a cancel) ends the thread and fails the match under way. */
export class LineMatcher {
  private readonly thread: Worker;
  private pending?: { resolve: (m: Matches) => void; reject: (e: Error) => void };
  private failure?: Error;

  constructor(
    pattern: string,
    private readonly signal: AbortSignal,
  ) {
    this.thread = new Worker(THREAD_SOURCE, { eval: true, workerData: { pattern }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    this.thread.on('message', (m: Matches) => this.settle(undefined, m));
    this.thread.on('error', (e) => this.fail(new ToolError(`the search failed: ${e.message}`)));
    this.thread.on('exit', () => this.fail(new ToolError('the search stopped')));
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  match(text: string, limit: number): Promise<Matches> {
    if (this.signal.aborted) return Promise.reject(this.stopped());
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.thread.postMessage({ text, limit });
    });
  }

  async close(): Promise<void> {
    this.signal.removeEventListener('abort', this.onAbort);
    await this.thread.terminate();
  }

  private readonly onAbort = () => {
    this.fail(this.stopped());
    void this.thread.terminate();
  };

  private stopped(): ToolError {
    return new ToolError('the search was stopped (a pattern that backtracks without end, such as (a+)+$, never finishes)');
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.settle(this.failure);
  }

  private settle(e: Error | undefined, m?: Matches): void {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    if (e) p.reject(e);
    else p.resolve(m!);
  }
}
