import { newId, nowIso } from './store';

/** One webhook event as the emulator records and delivers it. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

const OUTBOX_LIMIT = 1000;

/**
 * Webhooks (spec: Events rule 7, `trigger.paused`). Delivery format and signing are not shown.
 * Assumption: the emulator keeps every webhook in an outbox read at `GET /_emulator/webhooks`, and when
 * started with `webhookUrl` also POSTs each one there as JSON `{id, type, created_at, data}`, unsigned,
 * once, without retries; deliveries are counted in stats as `webhooks_delivered` / `webhooks_failed`.
 */
export class Webhooks {
  readonly outbox: WebhookEvent[] = [];

  constructor(
    private readonly url: string | undefined,
    private readonly count: (name: string) => void,
    private readonly log?: (line: string) => void,
  ) {}

  send(type: string, data: Record<string, unknown>): WebhookEvent {
    const event: WebhookEvent = { id: newId('whevt'), type, created_at: nowIso(), data };
    this.outbox.push(event);
    if (this.outbox.length > OUTBOX_LIMIT) this.outbox.shift();
    if (this.url) void this.deliver(this.url, event);
    return event;
  }

  private async deliver(url: string, event: WebhookEvent): Promise<void> {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
      await res.body?.cancel();
      this.count(res.ok ? 'webhooks_delivered' : 'webhooks_failed');
      if (!res.ok) this.log?.(`webhook ${event.type} ${event.id} to ${url}: HTTP ${res.status}`);
    } catch (e) {
      this.count('webhooks_failed');
      this.log?.(`webhook ${event.type} ${event.id} to ${url}: ${(e as Error).message}`);
    }
  }
}
