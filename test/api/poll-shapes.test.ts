// docs/service.md "Shapes a real service may answer instead": a work poll may answer one row or nothing rather than {items}.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { exitCodeFor } from '../../src/runtime/errors';
import { work } from '../../src/api/work';
import { useLoopback } from './loopback';

const service = useLoopback();
const ROW = { id: 'work_1', generation: 1, status: 'queued' };

function answer(status: number, body?: string): void {
  service.handle = (_req, res) => res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(body);
}

const poll = () =>
  work.poll(new ApiClient({ baseUrl: service.url, credential: 'envkey_test_1', apiVersion: 'v', userAgent: 'svc/test', maxRetries: 0 }), 'env_1', 'w1', 0);

describe('work poll answers', () => {
  it.each([
    ['{items: [row]}', 200, JSON.stringify({ items: [ROW] }), [ROW]],
    ['{items: []}', 200, '{"items":[]}', []],
    ['one row', 200, JSON.stringify(ROW), [ROW]],
    ['204', 204, undefined, []],
    ['an empty 200', 200, undefined, []],
    ['null', 200, 'null', []],
  ])('%s is read as its rows', async (_what, status, body, rows) => {
    answer(status, body);
    expect((await poll()).items).toEqual(rows);
  });

  it.each([
    ['an array', '[1]'],
    ['an object without items or id', '{"ok":true}'],
  ])('%s is a body of another shape: exit 9', async (_what, body) => {
    answer(200, body);
    const err = await poll().catch((e) => e);
    expect(exitCodeFor(err)).toBe(9);
  });
});
