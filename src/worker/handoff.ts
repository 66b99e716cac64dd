import { checkBaseUrl } from '../config/validate';
import { UsageError } from '../runtime/errors';
import type { WorkItem } from '../api/work';
import type { Line } from './lines';

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

/** Longest line `serve` reads from its input: the spec's largest JSON request body, far past any real hand-off. */
export const MAX_HANDOFF_BYTES = 4 * 1024 * 1024;

/** Parses the first line of `serve`'s input; a bad hand-off is a usage error (exit 2) with no content quoted. */
export function parseHandoff(line: Line | undefined): Handoff {
  if (line?.cut)
    throw new UsageError(`the hand-off on standard input is longer than ${MAX_HANDOFF_BYTES} bytes: it is not one from \`svc worker run --on-work\``);
  if (line === undefined || line.text.trim() === '')
    throw new UsageError('no hand-off on standard input: `svc worker serve` is started by `svc worker run --on-work`');
  let h: Partial<Handoff>;
  try {
    h = JSON.parse(line.text) as Partial<Handoff>;
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
  // A base URL that cannot be reached would be retried for good: a broken hand-off is exit 2 before any request.
  if (typeof h.base_url !== 'string') throw new UsageError('the hand-off on standard input lacks base_url');
  checkBaseUrl(h.base_url, 'the hand-off base_url');
  return h as Handoff;
}
