import { createHash } from 'node:crypto';
import { LIMITS } from '../wire/limits';
import { conflict, invalidParam } from './errors';

interface Entry {
  fingerprint: string;
  running: boolean;
  status?: number;
  body?: unknown;
  at: number;
}

export interface Replay {
  status: number;
  body: unknown;
}

/** Stored responses per Idempotency-Key (spec: Idempotency; R-IDEM-*). */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly now: () => number = Date.now) {}

  static fingerprint(method: string, path: string, body: Buffer | string | undefined): string {
    return createHash('sha256')
      .update(method)
      .update('\0')
      .update(path)
      .update('\0')
      .update(body ?? '')
      .digest('hex');
  }

  /** Starts a keyed request: a replay, a 409 conflict, or undefined to go ahead. */
  begin(scope: string, key: string, fingerprint: string): Replay | undefined {
    if (Buffer.byteLength(key) > LIMITS.idempotencyKeyBytes) {
      invalidParam('header.idempotency-key', `Idempotency-Key is longer than ${LIMITS.idempotencyKeyBytes} bytes`);
    }
    const id = `${scope}\0${key}`;
    const e = this.entries.get(id);
    if (e && this.now() - e.at > LIMITS.idempotencyReplayMs) this.entries.delete(id);
    else if (e) {
      if (e.fingerprint !== fingerprint) conflict('this Idempotency-Key was used with a different request');
      if (e.running) conflict('a request with this Idempotency-Key is still running');
      return { status: e.status!, body: e.body };
    }
    this.entries.set(id, { fingerprint, running: true, at: this.now() });
    return undefined;
  }

  /** Stores the outcome, or forgets the key for outcomes that are not stored (validation, auth, 5xx). */
  finish(scope: string, key: string, status: number, body: unknown): void {
    const id = `${scope}\0${key}`;
    const e = this.entries.get(id);
    if (!e) return;
    const type = (body as { error?: { type?: string } } | undefined)?.error?.type;
    const notStored = status >= 500 || status === 401 || status === 403 || type === 'invalid_parameter_error' || type === 'invalid_request_error';
    if (notStored) this.entries.delete(id);
    else Object.assign(e, { running: false, status, body });
  }
}
