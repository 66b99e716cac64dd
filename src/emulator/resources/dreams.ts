import { fail, invalidParam, precondition } from '../errors';
import type { Emulator } from '../server';
import { nowIso, publicView, type Rec } from '../store';
import { listNewest } from '../listing';
import { validate } from '../validate';

/**
 * Emulator assumption: no model maintains memories here, so a dream stays `running` until it is
 * cancelled; `cancelled` is terminal and a second cancel is 400 failed_precondition_error.
 */
type Dream = Rec & { memory_store_id: string; instructions: string; status: 'running' | 'cancelled'; cancelled_at: string | null };

export function registerDreams(emu: Emulator): void {
  const dreams = emu.collection<Dream>('dreams', 'dream', 'dream');
  const stores = emu.collection('memory_stores', 'memstore', 'memory store');

  emu.router.post(
    '/v1/dreams',
    (r) => {
      const body = validate(r.body, { memory_store_id: { type: 'string', required: true }, instructions: { type: 'string' } });
      const store = stores.get(body.memory_store_id) ?? invalidParam('body.memory_store_id', `memory store ${body.memory_store_id} not found`);
      if (store.archived_at) precondition(`memory store ${store.id} is archived`);
      const d = dreams.insert({ memory_store_id: store.id, instructions: body.instructions ?? '', status: 'running', cancelled_at: null });
      return { status: 201, body: publicView(d) };
    },
    { idempotent: true },
  );

  emu.router.get('/v1/dreams', (r) => {
    const storeId = r.query.get('memory_store_id');
    return listNewest(dreams, r.query, { keep: (d) => storeId === null || d.memory_store_id === storeId });
  });

  emu.router.get('/v1/dreams/:id', (r) => ({ status: 200, body: publicView(dreams.must(r.params.id)) }));

  emu.router.post(
    '/v1/dreams/:id/cancel',
    (r) => {
      const d = dreams.must(r.params.id);
      if (d.status !== 'running') fail('failed_precondition_error', `dream ${d.id} is ${d.status}`);
      dreams.touch(d, { status: 'cancelled', cancelled_at: nowIso() } as Partial<Dream>);
      return { status: 200, body: publicView(d) };
    },
    { body: 'none' },
  );
}
