import { checkTimeZone, nextFire, parseCron } from '../cron';
import { invalidParam } from '../errors';
import type { Emulator } from '../server';
import type { Collection, Rec } from '../store';

export type Schedule = { type: 'cron'; expression: string; timezone: string };
/** What the scheduler needs of a trigger; `_next_fire_ms` is the next occurrence on the emulator clock. */
export type Scheduled = Rec & { status: 'active' | 'paused'; schedule: Schedule | null; _next_fire_ms?: number | null };

/** Each occurrence missed while the clock jumped is fired, up to this many per trigger and tick; older ones are dropped. */
const MAX_CATCH_UP = 100;
/** setTimeout cannot wait longer than this; a farther occurrence re-arms on the way. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks a schedule and fills its default time zone. Assumption (docs/service.md gives only the shape
 * `{type: "cron", expression, timezone}`): five-field cron, an IANA zone, UTC when omitted; a schedule
 * that never fires (`0 0 31 2 *`) is a bad expression.
 */
export function checkSchedule(schedule: Record<string, any>, param: string): Schedule {
  const timezone = schedule.timezone ?? 'UTC';
  let cron;
  try {
    cron = parseCron(schedule.expression);
  } catch (e) {
    return invalidParam(`${param}.expression`, (e as Error).message);
  }
  try {
    checkTimeZone(timezone);
  } catch {
    invalidParam(`${param}.timezone`, `"${timezone}" is not an IANA time zone`);
  }
  if (nextFire(cron, timezone, Date.now()) === undefined) invalidParam(`${param}.expression`, `"${schedule.expression}" never fires`);
  return { type: 'cron', expression: schedule.expression, timezone };
}

/**
 * Fires active scheduled triggers at their cron occurrences on the emulator clock: a timer for real
 * time, and `tick()` right after the clock is advanced. `fire` makes one scheduled (system) run.
 */
export class TriggerScheduler<T extends Scheduled> {
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly emu: Emulator,
    private readonly triggers: Collection<T>,
    private readonly fire: (t: T) => unknown,
  ) {}

  /** Plans a trigger's next occurrence from now (after create, update, pause and resume). */
  plan(t: T): void {
    t._next_fire_ms = t.status === 'active' && t.schedule ? this.after(t.schedule, this.emu.clock.now()) : null;
    this.arm();
  }

  /** Fires every due occurrence, oldest first, and returns what the runs returned. */
  tick(): unknown[] {
    const now = this.emu.clock.now();
    const out: unknown[] = [];
    const due = this.triggers.values().filter((t) => typeof t._next_fire_ms === 'number' && t._next_fire_ms <= now);
    due.sort((a, b) => a._next_fire_ms! - b._next_fire_ms!);
    for (const t of due) {
      for (let n = 0; t.status === 'active' && t.schedule && typeof t._next_fire_ms === 'number' && t._next_fire_ms <= now; n++) {
        if (n === MAX_CATCH_UP) {
          t._next_fire_ms = this.after(t.schedule, now);
          break;
        }
        const run = this.fireSafely(t);
        if (run !== undefined) out.push(run);
        // The run may have paused the trigger (three skips).
        t._next_fire_ms = t.status === 'active' && t.schedule ? this.after(t.schedule, t._next_fire_ms) : null;
      }
    }
    if (due.length) this.emu.scheduleSave();
    this.arm();
    return out;
  }

  /** Arms the timer for the nearest occurrence. */
  arm(): void {
    clearTimeout(this.timer);
    if (this.closed || this.emu.options.realTimeSchedules === false) return;
    const next = this.triggers.values().flatMap((t) => (typeof t._next_fire_ms === 'number' ? [t._next_fire_ms] : []));
    if (next.length === 0) return;
    const wait = Math.min(Math.max(0, Math.min(...next) - this.emu.clock.now()), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.tick(), wait);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** A run that throws is logged, so one broken trigger cannot stop the timer. */
  private fireSafely(t: T): unknown {
    try {
      return this.fire(t);
    } catch (e) {
      this.emu.options.log?.(`trigger ${t.id}: scheduled run failed: ${(e as Error)?.stack ?? e}`);
      return undefined;
    }
  }

  private after(s: Schedule, ms: number): number | null {
    return nextFire(parseCron(s.expression), s.timezone, ms) ?? null;
  }
}
