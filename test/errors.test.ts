// Rules proved here: R-ERR-11, R-ERR-12, R-ERR-16
import { describe, expect, it } from 'vitest';
import { ApiError, BODY_TIMEOUT, NetworkError, PROXY_AUTH, PROXY_FAILED } from '../src/api/errors';
import {
  ConfigError,
  ExitCodeError,
  InterruptedError,
  NoCredentialError,
  SessionFailedError,
  UsageError,
  WaitTimeoutError,
  exitCodeFor,
} from '../src/runtime/errors';
import { errorJson, errorLine } from '../src/output/error-line';
import { recoveryHint } from '../src/output/error-hints';
import { ERROR_STATUS } from '../src/wire/errors';
import { addSecret } from '../src/text/redact';

const api = (status: number, type?: string) => new ApiError({ status, error: type ? { type, message: 'm', request_id: 'r' } : undefined });

describe('the exit code map of docs/behaviour.md', () => {
  it.each([
    [new UsageError('u'), 2],
    [new ConfigError('c'), 2],
    [api(400, 'invalid_parameter_error'), 3],
    [api(400, 'invalid_request_error'), 3],
    [api(401, 'authentication_error'), 4],
    [new NoCredentialError(), 4],
    [api(403, 'permission_denied_error'), 5],
    [api(404, 'resource_not_found_error'), 6],
    [api(409, 'conflict_error'), 7],
    [api(400, 'failed_precondition_error'), 7],
    [api(412, 'failed_precondition_error'), 7],
    [api(429, 'rate_limit_reached_error'), 8],
    [api(429, 'exceeded_current_quota_error'), 8],
    [api(500, 'server_error'), 9],
    [api(502, 'odd_type'), 9],
    [api(404), 9],
    [new NetworkError('n'), 10],
    [new SessionFailedError('s'), 11],
    [new WaitTimeoutError('w'), 124],
    [new InterruptedError(), 130],
    [new ExitCodeError(3, 'x'), 3],
    [new Error('bug'), 1],
  ])('%s → %i', (err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it('R-ERR-12 formats the one line with every known member, the service message shown', () => {
    const e = new ApiError({ status: 400, error: { type: 'invalid_parameter_error', message: 'bad\nname', param: 'body.name', request_id: 'req_1' } });
    expect(errorLine(e)).toBe('error: bad name (type=invalid_parameter_error status=400 param=body.name request_id=req_1)');
  });

  it('says a bug is a bug, pointing at --debug', () => {
    expect(errorLine(new TypeError('x is undefined'))).toBe('error: unexpected failure: x is undefined (run with --debug for details)');
  });

  it('R-ERR-11 exit code and hint follow status and type, never the wording of the message', () => {
    const misleading = new ApiError({
      status: 409,
      error: { type: 'conflict_error', message: 'rate limit reached: authentication failed, server_error', request_id: 'r' },
    });
    const plain = api(409, 'conflict_error');
    expect(exitCodeFor(misleading)).toBe(exitCodeFor(plain));
    expect(exitCodeFor(misleading)).toBe(7);
    expect(recoveryHint(misleading)).toBe(recoveryHint(plain));
  });

  it('R-ERR-16 every error type of the spec table has its recovery hint; an unknown type has none', () => {
    for (const type of Object.keys(ERROR_STATUS)) expect(recoveryHint(api(400, type)), type).toMatch(/\S/);
    expect(recoveryHint(api(403, 'permission_denied_error'))).toBe('Check permissions and credential scope.');
    expect(recoveryHint(api(429, 'exceeded_current_quota_error'))).toBe('Restore quota or budget.');
    expect(recoveryHint(api(400, 'toString'))).toBeUndefined();
    expect(recoveryHint(new SessionFailedError('s', 'Wait and retry.'))).toBe('Wait and retry.');
  });
});

describe('what an error line may carry', () => {
  it("a connection that fails while a caller streams a body (undici's SocketError, its body timeout) is exit 10, said as such", () => {
    const cut = Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' });
    const stalled = Object.assign(new Error('Body Timeout Error'), { name: 'BodyTimeoutError', code: BODY_TIMEOUT });
    expect(exitCodeFor(cut)).toBe(10);
    expect(exitCodeFor(stalled)).toBe(10);
    expect(errorLine(cut)).toBe('error: the connection failed: the connection was cut (the other side closed it)');
    expect(errorLine(stalled)).toBe('error: the connection failed: timed out');
  });

  it('a proxy that asks for credentials is exit 4; one that fails otherwise exit 10 (docs/decisions/network.md)', () => {
    const asked = new NetworkError('cannot reach https://api: the proxy http://ops:***@p:3128 (HTTPS_PROXY) asked for credentials (407)', undefined, {
      code: PROXY_AUTH,
    });
    const refused = new NetworkError(
      'cannot reach https://api: the proxy http://p:3128 (HTTPS_PROXY) refused to connect to api:443: it answered 502',
      undefined,
      {
        code: PROXY_FAILED,
      },
    );
    expect(exitCodeFor(asked)).toBe(4);
    expect(exitCodeFor(refused)).toBe(10);
  });

  it('a secret seen in this run is redacted from any error, whatever its kind', () => {
    addSecret('tok_seen_in_this_run_5150');
    expect(errorLine(new UsageError('cannot use tok_seen_in_this_run_5150 here'))).toBe('error: cannot use *** here');
    expect(errorLine(new TypeError('tok_seen_in_this_run_5150'))).toBe('error: unexpected failure: *** (run with --debug for details)');
  });

  it('masks URL passwords and Bearer/Basic credentials it was never told about', () => {
    expect(errorLine(new UsageError('bad URL https://u:pw-123456@h.example/x, header Authorization: Basic dXNlcjpwYXNz'))).toBe(
      'error: bad URL https://u:***@h.example/x, header Authorization: Basic ***',
    );
  });

  it('escapes ESC, BEL, OSC and C1 controls whatever stderr is (a pipe through tee ends on a terminal); line breaks never survive', () => {
    const e = new UsageError('a\u001b[31mred\u0007\u009b\r\nb');
    expect(errorLine(e)).toBe('error: a\\x1b[31mred\\x07\\x9b b');
  });

  it('the JSON error line carries a C1 control as \\u009b, not the raw character, and keeps its value', () => {
    const line = errorJson(new ApiError({ status: 404, error: { type: 'resource_not_found_error', message: 'no agent x\u009b2Jy\u007f' } }));
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain('x\\u009b2Jy\\u007f');
    expect(JSON.parse(line).error.message).toBe('no agent x\u009b2Jy\u007f');
  });

  it('a refused loopback URL hints at the emulator; another host does not', () => {
    const refused = (baseUrl: string) => new NetworkError(`cannot reach ${baseUrl}: ECONNREFUSED`, undefined, { code: 'ECONNREFUSED', baseUrl });
    expect(recoveryHint(refused('http://127.0.0.1:4010'))).toBe('is the emulator running (`svc emulator`), or is SVC_BASE_URL set?');
    expect(recoveryHint(refused('http://localhost:4010'))).toBeDefined();
    expect(recoveryHint(refused('https://api.example.com'))).toBeUndefined();
  });
});

describe('redaction leaves prose alone', () => {
  it.each(['Bearer token required', 'Basic validation failed for name', 'the value is too long'])('%j is printed as is', (text) => {
    expect(errorLine(new UsageError(text))).toBe(`error: ${text}`);
  });
});
