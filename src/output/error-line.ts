/** How a failure is printed: the one line of docs/behaviour.md, or its JSON form under an explicit -o json|ndjson. */
import { escapeControls, escapeJsonControls } from './controls';
import { ApiError, NetworkError, networkReason } from '../api/errors';
import { ConfigError, isKnown, NoCredentialError, noteOf, SessionEndError, UsageError } from '../runtime/errors';
import { redact } from '../text/redact';

/**
 * The one-line message of docs/behaviour.md: `error: MESSAGE (type=… status=… param=… request_id=…)`, then any note. Secrets
 * are redacted; line breaks become spaces; other control characters are escaped so the service or an argument
 * cannot move the cursor, ring the bell or retitle the window (stderr piped through `tee` still ends on a terminal).
 */
export function errorLine(err: unknown): string {
  const line = baseLine(err);
  const note = noteOf(err);
  return printable(note ? `${line}; ${note}` : line);
}

function baseLine(err: unknown): string {
  if (err instanceof ApiError) {
    const parts: string[] = [];
    if (err.type) parts.push(`type=${err.type}`);
    parts.push(`status=${err.status}`);
    if (err.param) parts.push(`param=${err.param}`);
    if (err.requestId) parts.push(`request_id=${err.requestId}`);
    return `error: ${err.message} (${parts.join(' ')})`;
  }
  if (isKnown(err)) return `error: ${(err as Error).message}`;
  const reason = networkReason(err);
  if (reason !== undefined) return `error: the connection failed: ${reason}`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: unexpected failure: ${message} (run with --debug for details)`;
}

/** Text for stderr: redacted, one line, its control characters escaped. */
export function printable(text: string): string {
  return escapeControls(
    redact(text)
      .replace(/\s*[\r\n\v\f\u0085\u2028\u2029]+\s*/g, ' ')
      .trim(),
  );
}

/** The JSON form used with an explicit `-o json|ndjson`: the service's error object. */
export function errorJson(err: unknown): string {
  if (err instanceof ApiError || err instanceof SessionEndError) return jsonLine({ error: err.toErrorObject() });
  const type =
    err instanceof UsageError || err instanceof ConfigError
      ? 'usage_error'
      : err instanceof NetworkError || networkReason(err) !== undefined
        ? 'network_error'
        : err instanceof NoCredentialError
          ? 'authentication_error'
          : isKnown(err)
            ? 'cli_error'
            : 'unexpected_error';
  return jsonLine({ error: { type, message: err instanceof Error ? err.message : String(err) } });
}

/** Whether failures print as JSON: the format asked for explicitly (flag, env or profile, never the piped default) is json or ndjson. */
export const jsonFailures = (output: string | undefined): boolean => output === 'json' || output === 'ndjson';

/** A failure's line as docs/behaviour.md prints it: the JSON form under an explicit `-o json|ndjson` (`output`), else text. */
export function failureLine(err: unknown, output: string | undefined): string {
  return jsonFailures(output) ? errorJson(err) : errorLine(err);
}

/** One JSON line, redacted, with the controls JSON.stringify leaves raw escaped (the same value). */
function jsonLine(value: unknown): string {
  return escapeJsonControls(redact(JSON.stringify(value)));
}
