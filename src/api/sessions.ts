import { seg } from './path';
import type { ApiClient, Query } from './client';
import { paginate, type ListOptions, type Page } from './paginate';
import { RESOURCES } from './manifest';
import { crud } from './resources';
import type { PendingInput, Session, SessionResource, Thread } from '../wire/resources';
import type { SessionEvent } from '../wire/events';

const base = (sid: string) => `/v1/sessions/${seg(sid)}`;
/** The session or one of its threads: history and streams have the same shape under both. */
export const eventsBase = (sid: string, threadId?: string) => (threadId ? `${base(sid)}/threads/${seg(threadId)}` : base(sid));

export interface HistoryPage extends Page<SessionEvent> {
  stream_cursor?: string | null;
}

/** The session endpoints of the spec and docs/service.md, one function each; `c` carries the API key or a session token. */
export const sessions = {
  ...crud<Session>(RESOURCES.sessions),
  /** 202 `{event_id}`; an interrupt answers `{control_epoch}` instead. */
  sendEvents: async (c: ApiClient, sid: string, body: { type?: string; events: unknown[] }, idempotencyKey?: string) =>
    (await c.json<{ event_id?: string; control_epoch?: string }>({ method: 'POST', path: `${base(sid)}/events`, json: body, idempotencyKey })).data,
  interrupt: async (c: ApiClient, sid: string, expectedEpoch?: string) =>
    (
      await c.json<{ control_epoch?: string }>({
        method: 'POST',
        path: `${base(sid)}/events`,
        json: { events: [{ type: 'user.interrupt', data: expectedEpoch === undefined ? {} : { expected_control_epoch: expectedEpoch } }] },
      })
    ).data,
  continue: async (c: ApiClient, sid: string) => (await c.json<{ control_epoch: string }>({ method: 'POST', path: `${base(sid)}/continue` })).data,
  pending: async (c: ApiClient, sid: string) => (await c.json<{ items: PendingInput[] }>({ method: 'GET', path: `${base(sid)}/events/pending` })).data,
  resources: (c: ApiClient, sid: string, opts: ListOptions) => paginate<SessionResource>(c, `${base(sid)}/resources`, {}, opts),
  resource: async (c: ApiClient, sid: string, rid: string) =>
    (await c.json<SessionResource>({ method: 'GET', path: `${base(sid)}/resources/${seg(rid)}` })).data,
  /** One page of history (`stream_cursor` included), for resume and backfill. */
  historyPage: async (c: ApiClient, sid: string, query: Query & { order?: 'asc' | 'desc' }, threadId?: string, signal?: AbortSignal) =>
    (await c.json<HistoryPage>({ method: 'GET', path: `${eventsBase(sid, threadId)}/events`, query, signal })).data,
  history: (c: ApiClient, sid: string, query: Query, opts: ListOptions, threadId?: string) =>
    paginate<SessionEvent>(c, `${eventsBase(sid, threadId)}/events`, query, opts),
  streamPath: (sid: string, threadId?: string) => `${eventsBase(sid, threadId)}/events/stream`,
};

export const threads = {
  list: (c: ApiClient, sid: string, query: Query, opts: ListOptions) => paginate<Thread>(c, `${base(sid)}/threads`, query, opts),
  get: async (c: ApiClient, sid: string, tid: string) => (await c.json<Thread>({ method: 'GET', path: `${base(sid)}/threads/${seg(tid)}` })).data,
  /** 204 (docs/service.md); clients accept 200 with a body too. */
  archive: async (c: ApiClient, sid: string, tid: string) =>
    (await c.json<Thread | undefined>({ method: 'POST', path: `${base(sid)}/threads/${seg(tid)}/archive`, expect: 'object-or-none' })).data,
};
