/**
 * The scheduler's clock: real time plus an offset that tests move forward through the admin path
 * `POST /_emulator/clock/advance`, so a cron trigger fires without waiting. Record timestamps
 * (`created_at`, …) stay on real time; only schedules read this clock.
 */
export class Clock {
  /** How far the clock runs ahead of real time; kept in the snapshot. */
  offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }
}
