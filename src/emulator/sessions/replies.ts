import { invalidParam } from '../errors';
import type { ReplyEvent } from './input';
import type { ReplyData, ReplyKind } from './model';

interface Wait {
  kind: ReplyKind;
  threadId: string | undefined;
  resolve: (d: ReplyData) => void;
}

/**
 * The calls of a session awaiting a user's or a worker's reply: which are awaited and by which thread, which were
 * answered, and the worker-run calls a worker may answer before the model gets to await them.
 */
export class PendingReplies {
  private readonly waits = new Map<string, Wait>();
  private readonly answered = new Set<string>();
  /** Worker-run calls of a self-hosted session, by id, with their thread: a worker may answer them. */
  private readonly workerCalls = new Map<string, string | undefined>();
  /** Worker-run calls that are runnable (allowed) but not yet awaited by the model, and results that came first. */
  private readonly runnable = new Set<string>();
  private readonly early = new Map<string, ReplyData>();

  /** A worker-run call was made on `threadId`; an allowed one is runnable the moment it is seen. */
  workerCall(id: string, threadId: string | undefined, allowed: boolean): void {
    this.workerCalls.set(id, threadId);
    if (allowed) this.runnable.add(id);
  }

  /** 400 for a reply no call awaits or of the wrong kind; a repeat of an answered call passes (and changes nothing). */
  check(e: ReplyEvent, i: number): void {
    const w = this.waits.get(e.data.event_id);
    if (!w && this.answered.has(e.data.event_id)) return;
    if (!w && e.type === 'user.tool_result' && this.runnable.has(e.data.event_id)) return;
    if (!w) invalidParam(`body.events[${i}].data.event_id`, `no call of this session awaits ${e.type} for ${e.data.event_id}`);
    if (w!.kind !== e.type) invalidParam(`body.events[${i}].data.event_id`, `${e.data.event_id} awaits ${w!.kind}, not ${e.type}`);
  }

  /**
   * Takes the first valid reply for a call (later ones change nothing): the thread its event belongs to, and
   * `wake` for the awaiting thread (none when the result came before the model awaited it). Undefined: ignored.
   */
  take(e: ReplyEvent): { threadId: string | undefined; wake?: () => void } | undefined {
    const id = e.data.event_id;
    const w = this.waits.get(id);
    if (!w && e.type === 'user.tool_result' && this.runnable.delete(id)) {
      // A worker answered a runnable call before the model awaited it: kept for the model.
      this.answered.add(id);
      this.early.set(id, e.data);
      return { threadId: this.workerCalls.get(id) };
    }
    if (!w) return undefined;
    this.waits.delete(id);
    this.answered.add(id);
    // An allowed worker-run call is runnable from here, before the model gets to await its result.
    if (e.type === 'user.tool_confirmation' && e.data.result === 'allow' && this.workerCalls.has(id)) this.runnable.add(id);
    return { threadId: w.threadId, wake: () => w.resolve(e.data) };
  }

  /** One promise per call, resolved by its reply (at once for a result that came first). */
  await(calls: Array<{ id: string; kind: ReplyKind }>, threadId: string | undefined): Array<Promise<[string, ReplyData]>> {
    return calls.map((c) => {
      this.runnable.delete(c.id);
      const first = this.early.get(c.id);
      if (first) {
        this.early.delete(c.id);
        return Promise.resolve<[string, ReplyData]>([c.id, first]);
      }
      return new Promise<[string, ReplyData]>((resolve) => this.waits.set(c.id, { kind: c.kind, threadId, resolve: (d) => resolve([c.id, d]) }));
    });
  }

  /** The calls stop being awaited (their wait ended or was cancelled). */
  release(ids: string[]): void {
    for (const id of ids) this.waits.delete(id);
  }

  /** Confirmations and custom results still awaited, with their threads (worker results do not need a human). */
  awaitingUser(): Array<{ id: string; threadId: string | undefined }> {
    return [...this.waits].filter(([, w]) => w.kind !== 'user.tool_result').map(([id, w]) => ({ id, threadId: w.threadId }));
  }

  /**
   * An interrupt: every call still awaiting a worker's result or a confirmation, and every runnable worker call, is
   * answered (the caller writes an error result for each); custom tool calls keep waiting; early results are dropped.
   */
  cancelForInterrupt(): Array<{ id: string; threadId: string | undefined }> {
    const out: Array<{ id: string; threadId: string | undefined }> = [];
    for (const [id, w] of this.waits) {
      if (w.kind === 'user.custom_tool_result') continue;
      this.waits.delete(id);
      out.push({ id, threadId: w.threadId });
    }
    for (const id of this.runnable) out.push({ id, threadId: this.workerCalls.get(id) });
    this.runnable.clear();
    this.early.clear();
    for (const { id } of out) this.answered.add(id);
    return out;
  }

  /** Nothing is awaited any more (the turn ended or the session was archived). */
  clear(): void {
    this.waits.clear();
  }
}
