// Issue 13: secrets never reach an error line or a debug log, whatever text carries them; control characters
// from the service or the arguments cannot drive the terminal. Issue 17: a refused loopback URL hints at the emulator.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';
import { useLoopback } from '../api/loopback';

const service = useLoopback();
const KEY = 'sk_test_never_printed_9f2c';
const env = (extra: Record<string, string> = {}) => ({ SVC_BASE_URL: service.url, SVC_API_KEY: KEY, ...extra });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The service answers 400 with this message. */
function failWith(message: string, type = 'invalid_request_error'): void {
  service.handle = (_req, res) =>
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type, message, request_id: 'req_1' } }));
}

describe('secrets in what svc prints', () => {
  it('a URL password is masked in "cannot reach", in the error line and the debug log', async () => {
    const port = await closedPort();
    const r = await svc(['agents', 'list', '--max-retries', '0', '--debug'], {
      env: { SVC_BASE_URL: `http://ops:hunter2pass@127.0.0.1:${port}`, SVC_API_KEY: KEY },
    });
    expect(r.code).toBe(10);
    expect(r.stderr).not.toContain('hunter2pass');
    expect(r.stderr).toContain(`error: cannot reach http://ops:***@127.0.0.1:${port}: ECONNREFUSED`);
  });

  it('a service message quoting the Authorization header is redacted, in the line and in the JSON form', async () => {
    failWith(`malformed header Authorization: Bearer ${KEY}`, 'authentication_error');
    const line = await svc(['agents', 'list'], { env: env() });
    expect(line.code).toBe(4);
    expect(line.stderr).not.toContain(KEY);
    expect(line.stderr).toContain('malformed header Authorization: Bearer ***');
    const json = await svc(['agents', 'list', '-o', 'json'], { env: env() });
    expect(json.stderr).not.toContain(KEY);
    expect(JSON.parse(json.stderr).error.message).toBe('malformed header Authorization: Bearer ***');
  });

  it('the key is redacted wherever the service quotes it, without a scheme before it', async () => {
    failWith(`key ${KEY} is not allowed here`);
    const r = await svc(['agents', 'list'], { env: env() });
    expect(r.stderr).toBe('error: key *** is not allowed here (type=invalid_request_error status=400 request_id=req_1)\n');
  });

  it('a credential value sent in this run is redacted from a service message that echoes it', async () => {
    const value = 'ghp_credential_value_31337';
    failWith(`value "${value}" is not a valid token`, 'invalid_parameter_error');
    const r = await svc(['vaults', 'credentials', 'create', 'vault_1', '--name', 'gh', '--type', 'static_bearer', '--value-stdin'], {
      env: env(),
      stdin: value,
    });
    expect(r.code).toBe(3);
    expect(service.seen.at(-1)?.body).toContain(value);
    expect(r.stderr).not.toContain(value);
    expect(r.stderr).toContain('value "***" is not a valid token');
  });

  it('--debug never prints the key or a credential value', async () => {
    const value = 'ghp_debug_value_424242';
    service.handle = (_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"cred_1","name":"gh","type":"static_bearer"}');
    const r = await svc(['vaults', 'credentials', 'create', 'vault_1', '--name', 'gh', '--type', 'static_bearer', '--value-stdin', '--debug'], {
      env: env(),
      stdin: value,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('debug: > POST');
    expect(r.stderr).not.toContain(KEY);
    expect(r.stderr).not.toContain(value);
  });
});

describe('control characters in error lines', () => {
  const hostile = 'bad \u001b[2J\u001b]0;pwned\u0007 name\r\nsecond line';

  it('are escaped on a terminal, and the line stays one line', async () => {
    failWith(hostile);
    const r = await svc(['agents', 'list'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(r.stderr).toContain('bad \\x1b[2J\\x1b]0;pwned\\x07 name second line');
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('hint: '))).toHaveLength(1);
  });

  it('keep the line one line when stderr is not a terminal', async () => {
    failWith(hostile);
    const r = await svc(['agents', 'list'], { env: env() });
    expect(r.stderr.split('\n')).toEqual([expect.stringContaining('name second line'), '']);
  });

  it('from an argument are escaped on a terminal too', async () => {
    service.handle = (req, res) =>
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'resource_not_found_error', message: `agent ${decodeURIComponent(req.url.split('/').pop() ?? '')} not found` } }));
    const r = await svc(['agents', 'get', '\u001b]0;title\u0007x'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('agent \\x1b]0;title\\x07x not found');
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });
});

describe('a refused loopback URL', () => {
  it('adds one hint line on a terminal: is the emulator running, or is SVC_BASE_URL set?', async () => {
    const port = await closedPort();
    const r = await svc(['agents', 'list', '--max-retries', '0'], { env: { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: KEY }, stderrTTY: true });
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(
      `error: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\nhint: is the emulator running (\`svc emulator\`), or is SVC_BASE_URL set?\n`,
    );
  });
});

describe('auth shows a base URL without its password', () => {
  it('auth status masks the password of the base URL', async () => {
    service.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
    const url = service.url.replace('http://', 'http://ops:hunter2pass@');
    const r = await svc(['auth', 'status', '-o', 'json'], { env: { SVC_BASE_URL: url, SVC_API_KEY: 'sk_test_status_1' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).base_url).toBe(service.url.replace('http://', 'http://ops:***@'));
    expect(r.stdout + r.stderr).not.toContain('hunter2pass');
  });
});
