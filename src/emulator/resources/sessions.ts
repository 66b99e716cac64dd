// The session routes: HTTP in and out of the sessions' service (sessions/service.ts).
import { fail, notFound } from '../errors';
import { listNewest, newestFirst } from '../listing';
import { STREAMED, type EmuRequest } from '../router';
import type { Emulator } from '../server';
import { historyPage } from '../sessions/history';
import type { LogView } from '../sessions/log';
import type { SessionRec, SessionRuntime, ThreadRec } from '../sessions/runtime';
import { createSessionService } from '../sessions/service';
import { listReply, paginate, publicView, visible } from '../store';
import { queryBool } from '../validate';

/** Routes a session work token may call, on its own session only. */
const WORKER = { auth: ['api', 'session'] as Array<'api' | 'session'> };

const threadView = (t: ThreadRec): LogView => ({ threadId: t.id, match: t.parent_thread_id === null ? undefined : t.id });

export function registerSessions(emu: Emulator): void {
  const svc = createSessionService(emu);
  const { sessions, threads, runtime } = svc;

  /** The session of the path; a session work token only reaches its own (403 otherwise). */
  function sessionOf(r: EmuRequest): SessionRec {
    const s = sessions.must(r.params.id);
    if (r.cred.kind === 'session' && r.cred.sessionId !== s.id) fail('permission_denied_error', 'this session work token belongs to another session');
    return s;
  }

  // docs/service.md: sessions create body and object; a new session is idle.
  emu.router.post('/v1/sessions', (r) => ({ status: 201, body: publicView(svc.create(r.body)) }), { idempotent: true });

  emu.router.get('/v1/sessions', (r) => listNewest(sessions, r.query, { timeFilters: true }));

  emu.router.get('/v1/sessions/:id', (r) => ({ status: 200, body: publicView(sessionOf(r)) }), WORKER);

  emu.router.patch('/v1/sessions/:id', (r) => {
    const s = sessionOf(r);
    svc.update(s, r.body);
    return { status: 200, body: publicView(s) };
  });

  emu.router.delete('/v1/sessions/:id', (r) => {
    svc.remove(sessionOf(r));
    return { status: 204 };
  });

  // docs/service.md: archive answers 200 with the object and `archived_at`.
  emu.router.post(
    '/v1/sessions/:id/archive',
    (r) => {
      const s = sessionOf(r);
      runtime(s).archive();
      return { status: 200, body: publicView(s) };
    },
    { body: 'none' },
  );

  emu.router.post('/v1/sessions/:id/continue', (r) => ({ status: 200, body: { control_epoch: runtime(sessionOf(r)).continue() } }), { body: 'none' });

  emu.router.get('/v1/sessions/:id/resources', (r) => ({ status: 200, body: paginate(sessionOf(r).resources, r.query) }));

  emu.router.get('/v1/sessions/:id/resources/:rid', (r) => {
    const b = sessionOf(r).resources.find((x) => x.id === r.params.rid);
    return { status: 200, body: b ?? notFound('session resource', r.params.rid) };
  });

  emu.router.post('/v1/sessions/:id/events', (r) => ({ status: 202, body: svc.sendEvents(sessionOf(r), r.body) }), { ...WORKER, idempotent: true });

  emu.router.get('/v1/sessions/:id/events/pending', (r) => ({ status: 200, body: { items: runtime(sessionOf(r)).queue } }), WORKER);

  emu.router.get('/v1/sessions/:id/events', (r) => ({ status: 200, body: historyPage(runtime(sessionOf(r)).log, {}, r.query) }), WORKER);

  emu.router.get('/v1/sessions/:id/events/stream', (r) => openStream(r, runtime(sessionOf(r)), {}), WORKER);

  // docs/service.md: thread paths and the Thread object.
  emu.router.get('/v1/sessions/:id/threads', (r) => {
    const s = sessionOf(r);
    return listReply(
      newestFirst(
        visible(
          threads.values().filter((t) => t.session_id === s.id),
          r.query,
        ),
      ),
      r.query,
    );
  });

  emu.router.get('/v1/sessions/:id/threads/:tid', (r) => ({ status: 200, body: publicView(svc.threadOf(sessionOf(r), r.params.tid)) }));

  // docs/service.md: thread archive answers 204, also when repeated.
  emu.router.post(
    '/v1/sessions/:id/threads/:tid/archive',
    (r) => {
      const s = sessionOf(r);
      runtime(s).archiveThread(svc.threadOf(s, r.params.tid));
      return { status: 204 };
    },
    { body: 'none' },
  );

  emu.router.get(
    '/v1/sessions/:id/threads/:tid/events',
    (r) => {
      const s = sessionOf(r);
      return { status: 200, body: historyPage(runtime(s).log, threadView(svc.threadOf(s, r.params.tid)), r.query) };
    },
    WORKER,
  );

  emu.router.get(
    '/v1/sessions/:id/threads/:tid/events/stream',
    (r) => {
      const s = sessionOf(r);
      return openStream(r, runtime(s), threadView(svc.threadOf(s, r.params.tid)));
    },
    WORKER,
  );
}

function openStream(r: EmuRequest, rt: SessionRuntime, view: LogView): typeof STREAMED {
  const includeDeltas = queryBool(r.query, 'include_deltas') ?? false;
  // The query parameter wins over Last-Event-ID.
  const header = r.headers['last-event-id'];
  const cursor = r.query.get('cursor') ?? (Array.isArray(header) ? header[0] : header);
  rt.hub.open({ res: r.res, view, cursor, includeDeltas, requestId: r.requestId });
  return STREAMED;
}
