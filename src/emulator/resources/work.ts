import type { CredentialKind } from '../credentials';
import { fail, invalidParam } from '../errors';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import { listReply } from '../store';
import { newestFirst } from '../listing';
import { validate, type Schema } from '../validate';
import { WorkQueue } from '../work/queue';
import { encodeSecret, workItem, type WorkRow } from '../work/row';
import type { Environment } from './environments';

const MAX_BLOCK_MS = 30_000;
const WORKER_ID_HEADER = 'svc-worker-id';

// docs/service.md: work ack and heartbeat bodies are `{generation}`; stop adds `final_status?: "completed"`.
const LEASE_SCHEMA: Schema = { generation: { type: 'integer', required: true, min: 1 } };
// No `force` or `reason`: unknown members are 400 invalid_parameter_error.
const STOP_SCHEMA: Schema = { ...LEASE_SCHEMA, final_status: { type: 'string', enum: ['completed'] } };

const WORKER_AUTH: CredentialKind[] = ['environment', 'session'];

const forbidden = (message: string): never => fail('permission_denied_error', message);

/**
 * docs/service.md: resolved ambiguities. An environment work key reaches only its own environment's queue
 *; a session work token reaches only its own row.
 */
function checkScope(r: EmuRequest, environmentId: string, rowId?: string): void {
  const cred = r.cred;
  if (cred.kind === 'environment' && cred.environmentId !== environmentId) forbidden('this environment work key is bound to another environment');
  if (cred.kind === 'session' && (cred.environmentId !== environmentId || cred.workId !== rowId))
    forbidden('this session work token is bound to another work row');
}

function blockMs(q: URLSearchParams): number {
  const raw = q.get('block_ms');
  if (raw === null) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_BLOCK_MS) invalidParam('query.block_ms', `block_ms must be an integer from 0 to ${MAX_BLOCK_MS}`);
  return Number(raw);
}

function workerId(r: EmuRequest): string {
  const v = r.headers[WORKER_ID_HEADER];
  if (typeof v === 'string' && v.trim() !== '') return v;
  return invalidParam(`header.${WORKER_ID_HEADER}`, 'the Svc-Worker-Id header names the polling worker');
}

/** Aborts when the client goes away, so a parked long poll does not claim a row for nobody. */
function clientGone(r: EmuRequest): AbortSignal {
  const ac = new AbortController();
  r.res.once('close', () => ac.abort());
  return ac.signal;
}

export function registerWork(emu: Emulator): void {
  const rows = emu.collection<WorkRow>('work_rows', 'work', 'work row');
  const environments = emu.collection<Environment>('environments', 'env', 'environment');
  const queue = new WorkQueue(emu, rows);
  emu.services.work = { ensureRow: (s, e) => queue.ensureRow(s, e), endRow: (s) => queue.endRow(s), releaseRow: (s) => queue.releaseRow(s) };
  emu.onClose(() => queue.close());

  /** The row the request names, after the credential's scope and the environment are checked. */
  const rowOf = (r: EmuRequest): WorkRow => {
    checkScope(r, r.params.env, r.params.id);
    environments.must(r.params.env);
    return queue.row(r.params.env, r.params.id);
  };
  const leaseOp = (op: (row: WorkRow, body: Record<string, any>) => WorkRow, schema: Schema) => (r: EmuRequest) => {
    const row = rowOf(r);
    const body = validate(r.body ?? {}, schema);
    return { status: 200, body: workItem(op(row, body)) };
  };

  // docs/service.md: work poll. Environment work key only: an API key or a session work token is 403.
  emu.router.get(
    '/v1/environments/:env/work/poll',
    async (r) => {
      checkScope(r, r.params.env);
      environments.must(r.params.env);
      const claimed = await queue.poll(r.params.env, workerId(r), blockMs(r.query), clientGone(r));
      const items = claimed ? [{ ...workItem(claimed.row), secret: encodeSecret(claimed.token, claimed.row) }] : [];
      return { status: 200, body: { items } };
    },
    { auth: ['environment'] },
  );

  emu.router.get(
    '/v1/environments/:env/work',
    (r) => {
      checkScope(r, r.params.env);
      environments.must(r.params.env);
      return listReply(newestFirst(queue.list(r.params.env)), r.query, workItem);
    },
    { auth: ['api', 'environment'] },
  );

  // docs/service.md: get work row accepts the API key or the environment work key.
  emu.router.get('/v1/environments/:env/work/:id', (r) => ({ status: 200, body: workItem(rowOf(r)) }), { auth: ['api', 'environment'] });

  // docs/service.md: work ack, heartbeat and stop paths; environment work key or the row's own session work token.
  emu.router.post(
    '/v1/environments/:env/work/:id/ack',
    leaseOp((row, b) => queue.ack(row, b.generation), LEASE_SCHEMA),
    { auth: WORKER_AUTH },
  );
  emu.router.post(
    '/v1/environments/:env/work/:id/heartbeat',
    leaseOp((row, b) => queue.heartbeat(row, b.generation), LEASE_SCHEMA),
    { auth: WORKER_AUTH },
  );
  emu.router.post(
    '/v1/environments/:env/work/:id/stop',
    leaseOp((row, b) => queue.stop(row, b.generation, b.final_status), STOP_SCHEMA),
    { auth: WORKER_AUTH },
  );
}
