import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../src/api/errors';
import { ConfigError, ExitCodeError, InterruptedError, NoCredentialError, SessionFailedError, UsageError, WaitTimeoutError, errorLine, exitCodeFor } from '../src/errors';

const api = (status: number, type?: string) => new ApiError({ status, error: type ? { type, message: 'm', request_id: 'r' } : undefined });

describe('the exit code map of CLI.md', () => {
  it.each([
    [new UsageError('u'), 2], [new ConfigError('c'), 2],
    [api(400, 'invalid_parameter_error'), 3], [api(400, 'invalid_request_error'), 3],
    [api(401, 'authentication_error'), 4], [new NoCredentialError(), 4],
    [api(403, 'permission_denied_error'), 5], [api(404, 'resource_not_found_error'), 6],
    [api(409, 'conflict_error'), 7], [api(400, 'failed_precondition_error'), 7], [api(412, 'failed_precondition_error'), 7],
    [api(429, 'rate_limit_reached_error'), 8], [api(429, 'exceeded_current_quota_error'), 8],
    [api(500, 'server_error'), 9], [api(502, 'odd_type'), 9], [api(404), 9],
    [new NetworkError('n'), 10], [new SessionFailedError('s'), 11], [new WaitTimeoutError('w'), 124],
    [new InterruptedError(), 130], [new ExitCodeError(3, 'x'), 3], [new Error('bug'), 1],
  ])('%s → %i', (err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it('formats the one line with every known member', () => {
    const e = new ApiError({ status: 400, error: { type: 'invalid_parameter_error', message: 'bad\nname', param: 'body.name', request_id: 'req_1' } });
    expect(errorLine(e)).toBe('error: bad name (type=invalid_parameter_error status=400 param=body.name request_id=req_1)');
  });

  it('says a bug is a bug, pointing at --debug', () => {
    expect(errorLine(new TypeError('x is undefined'))).toBe('error: unexpected failure: x is undefined (run with --debug for details)');
  });
});
