// Issue 13: a connection that fails in the middle of a body (cut, or stalled past --timeout) is a network failure:
// exit 10, and a read is retried like any network error.
import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';
import { useLoopback } from '../api/loopback';

const service = useLoopback();
const env = () => ({ SVC_BASE_URL: service.url, SVC_API_KEY: 'sk_test_mid_body' });
const AGENT = JSON.stringify({ id: 'agent_1', name: 'whole', model: 'm' });
const noWait = async () => {};

/** Headers promising the whole agent, half of it, then `then` (cut the socket, or say nothing more). */
function halfBody(then: 'cut' | 'stall') {
  service.handle = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(AGENT.length) });
    res.write(AGENT.slice(0, 10));
    if (then === 'cut') setImmediate(() => res.socket?.destroy());
  };
}

describe('a body that fails mid-way', () => {
  it('a body cut mid-way is retried, then exit 10 with one error line', async () => {
    halfBody('cut');
    service.seen.length = 0;
    const r = await svc(['agents', 'get', 'agent_1', '--max-retries', '2'], { env: env(), sleep: noWait });
    expect(r.code).toBe(10);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the connection to http:\/\/127\.0\.0\.1:\d+ failed while reading the response: the connection was cut \([^)]*\)\n$/);
    expect(service.seen).toHaveLength(3);
  });

  it('a read cut once succeeds on its retry', async () => {
    let calls = 0;
    service.handle = (_req, res) => {
      if (++calls === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(AGENT.length) });
        res.write(AGENT.slice(0, 10));
        setImmediate(() => res.socket?.destroy());
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(AGENT);
      }
    };
    const r = await svc(['agents', 'get', 'agent_1'], { env: env(), sleep: noWait });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'agent_1', name: 'whole' });
    expect(calls).toBe(2);
  });

  it('a body that stalls past --timeout is exit 10 "timed out", after its retries', async () => {
    halfBody('stall');
    service.seen.length = 0;
    const r = await svc(['agents', 'get', 'agent_1', '--timeout', '300ms', '--max-retries', '1'], { env: env(), sleep: noWait });
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/failed while reading the response: timed out/);
    expect(service.seen).toHaveLength(2);
  });

  it('a create cut mid-body is retried with the same Idempotency-Key', async () => {
    halfBody('cut');
    service.seen.length = 0;
    const r = await svc(['agents', 'create', '--name', 'n', '--model', 'm', '--max-retries', '1'], { env: env(), sleep: noWait });
    expect(r.code).toBe(10);
    expect(service.seen).toHaveLength(2);
    expect(service.seen[0].headers['idempotency-key']).toBe(service.seen[1].headers['idempotency-key']);
    expect(r.stderr).toContain('it may have been applied');
  });
});
