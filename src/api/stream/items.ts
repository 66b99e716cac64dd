import type { DeltaEvent, SessionEvent } from '../../wire/events';

/**
 * A complete event from a stream frame, parsed only when something reads `event`: the NDJSON tail writes `raw`
 * and decides on `type`, so most events are never parsed (the frame's `event` is the event type).
 */
export class FrameEvent {
  readonly kind = 'event';
  private parsed?: SessionEvent;

  constructor(
    private readonly data: string,
    readonly type: string,
  ) {}

  get event(): SessionEvent {
    return (this.parsed ??= JSON.parse(this.data) as SessionEvent);
  }

  /**
   * The data as received when it is one line (SSE joins multi-line data with '\n'); otherwise the event
   * re-serialised, so an NDJSON line is always one line.
   * Assumption: one-line data is the JSON event object the spec promises; it is not validated here.
   */
  get raw(): string {
    return this.data.indexOf('\n') === -1 ? this.data : JSON.stringify(this.event);
  }
}

/** A complete event from a history page (already parsed by the page read); `raw` serialised on first read. */
export class HistoryEvent {
  readonly kind = 'event';
  private text?: string;

  constructor(readonly event: SessionEvent) {}

  get type(): string {
    return this.event.type;
  }

  get raw(): string {
    return (this.text ??= JSON.stringify(this.event));
  }
}

/** A live preview; parsed on first read of `delta`. */
export class FrameDelta {
  readonly kind = 'delta';
  private parsed?: DeltaEvent;

  constructor(readonly raw: string) {}

  get delta(): DeltaEvent {
    return (this.parsed ??= JSON.parse(this.raw) as DeltaEvent);
  }
}
