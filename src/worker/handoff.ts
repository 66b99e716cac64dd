import { UsageError } from '../errors';
import type { InStream } from '../io';
import type { WorkItem } from '../api/work';

/**
 * What `worker run --on-work CMD` writes on CMD's standard input, as the first line: the claimed row without
 * its `secret`, and the session work token (standard input only: never argv, the environment, a log or a file).
 * Later lines are control messages from the worker; the only one is {@link STOP_LINE}.
 */
export interface Handoff {
  type: 'svc.work_handoff';
  row: WorkItem & { session_id: string; environment_id: string };
  sessions_token: string;
  /** Where the worker reached the service; `serve` uses it unless its own base URL is set. */
  base_url: string;
  api_version: string;
  /** The worker's `--max-idle`; `serve --max-idle` overrides it. */
  max_idle_ms: number;
}

/** Asks CMD to wind down: cancel its tools, write their results, exit 0 (the worker then stops the row). */
export const STOP_LINE = '{"type":"stop"}\n';

export const handoffLine = (h: Handoff): string => JSON.stringify(h) + '\n';

/** Parses the first line of `serve`'s input; a bad hand-off is a usage error (exit 2) with no content quoted. */
export function parseHandoff(line: string | undefined): Handoff {
  if (line === undefined || line.trim() === '')
    throw new UsageError('no hand-off on standard input: `svc worker serve` is started by `svc worker run --on-work`');
  let h: Partial<Handoff>;
  try {
    h = JSON.parse(line) as Partial<Handoff>;
  } catch {
    // The line holds a token: say where it failed, never what it holds.
    throw new UsageError('the hand-off on standard input is not JSON');
  }
  const row = h?.row;
  if (
    typeof h !== 'object' ||
    h === null ||
    typeof h.sessions_token !== 'string' ||
    !row ||
    typeof row.id !== 'string' ||
    typeof row.session_id !== 'string' ||
    typeof row.environment_id !== 'string'
  ) {
    throw new UsageError('the hand-off on standard input lacks row.id, row.session_id, row.environment_id or sessions_token');
  }
  return h as Handoff;
}

/** The lines of a stream, without their newline; a last line without one is yielded too. */
export async function* lines(stream: InStream): AsyncGenerator<string> {
  let buf = '';
  for await (const chunk of stream) {
    buf += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    for (let at = buf.indexOf('\n'); at >= 0; at = buf.indexOf('\n')) {
      yield buf.slice(0, at);
      buf = buf.slice(at + 1);
    }
  }
  if (buf !== '') yield buf;
}
