/**
 * Reads what each session's explanation needs (`needs`), and nothing more: one history page for a failed, waiting or
 * rescheduling session, the pending inputs of an interrupted one, and for running sessions on an environment its kind
 * once and, when self-hosted, its work rows once (a list, not a read per session).
 */
import type { ApiClient } from '../../api/client';
import { environments } from '../../api/environments';
import { tolerated } from '../../api/errors';
import { sessions } from '../../api/sessions';
import { work } from '../../api/work';
import type { Session, WorkItem } from '../../wire/resources';
import { inParallel } from '../../async/parallel';
import { READS_IN_FLIGHT } from '../reads';
import type { RecentHistory } from '../history';
import type { Explained } from './causes';
import { explainSession, needs, type SessionFacts } from './explain';

const TERMINAL_ROWS = ['completed', 'failed', 'cancelled', 'canceled'];

class Environments {
  private readonly kinds = new Map<string, Promise<boolean | undefined>>();
  private readonly rows = new Map<string, Promise<Map<string, WorkItem> | undefined>>();

  constructor(private readonly c: ApiClient) {}

  selfHosted(id: string): Promise<boolean | undefined> {
    let p = this.kinds.get(id);
    if (!p) {
      p = tolerated(environments.get(this.c, id)).then((e) => (e ? (e.config as { type?: unknown } | undefined)?.type === 'self_hosted' : undefined));
      this.kinds.set(id, p);
    }
    return p;
  }

  /** Each session's live row in the environment (the newest when there are several). */
  liveRows(id: string): Promise<Map<string, WorkItem> | undefined> {
    let p = this.rows.get(id);
    if (!p) {
      p = tolerated(
        (async () => {
          const bySession = new Map<string, WorkItem>();
          for await (const r of work.list(this.c, id, {}, { all: true, pageSize: 1000 }))
            if (!TERMINAL_ROWS.includes(String(r.status)) && typeof r.session_id === 'string') bySession.set(r.session_id, r);
          return bySession;
        })(),
      );
      this.rows.set(id, p);
    }
    return p;
  }
}

/** Each session explained, in the order given. */
export async function explainAll(c: ApiClient, list: Session[], history: RecentHistory, now: number): Promise<Explained[]> {
  const envs = new Environments(c);
  const out: Explained[] = new Array(list.length);
  await inParallel(list, READS_IN_FLIGHT, async (s, i) => {
    const n = needs(s);
    const id = String(s.id);
    const f: SessionFacts = { session: s, now };
    if (n.history) f.recent = await tolerated(history.of(id));
    if (n.pending) f.pending = (await tolerated(sessions.pending(c, id)))?.items;
    if (n.work && typeof s.environment_id === 'string') {
      f.selfHosted = await envs.selfHosted(s.environment_id);
      if (f.selfHosted) f.row = (await envs.liveRows(s.environment_id))?.get(id);
    }
    out[i] = explainSession(f);
  });
  return out;
}
