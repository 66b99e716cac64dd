/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week) evaluated in an IANA time
 * zone, for trigger schedules (docs/service.md: `schedule: {type: "cron", expression, timezone}`). Fields take
 * `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`, and month / weekday names.
 * As in classic cron, when both day fields are restricted a day matching either one fires.
 */
export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: Array<{ name: string; min: number; max: number; names?: string[]; nameBase?: number }> = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];
const MINUTE_MS = 60_000;
/** A schedule that does not fire within this many years never fires (e.g. `0 0 31 2 *`). */
const HORIZON_YEARS = 5;

/** Parses an expression; throws an Error saying what is wrong. */
export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error('a cron expression has five fields: minute hour day-of-month month day-of-week');
  const sets = parts.map((p, i) => parseField(p, FIELDS[i]));
  if (sets[4].has(7)) sets[4].add(0);
  return { minutes: sets[0], hours: sets[1], days: sets[2], months: sets[3], weekdays: sets[4], anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' };
}

function parseField(text: string, f: (typeof FIELDS)[number]): Set<number> {
  const out = new Set<number>();
  const value = (v: string): number => {
    const named = f.names?.indexOf(v.toLowerCase()) ?? -1;
    const n = named >= 0 ? named + f.nameBase! : /^\d+$/.test(v) ? Number(v) : NaN;
    if (!(n >= f.min && n <= f.max)) throw new Error(`"${v}" is not a valid ${f.name} (${f.min}-${f.max})`);
    return n;
  };
  for (const item of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(item);
    if (!m || m[2] === '0') throw new Error(`"${item}" is not a valid ${f.name} entry`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    const [lo, hi] =
      m[1] === '*' ? [f.min, f.max] : m[1].includes('-') ? m[1].split('-', 2).map(value) : [value(m[1]), m[2] === undefined ? value(m[1]) : f.max];
    if (lo > hi) throw new Error(`"${item}" is an empty ${f.name} range`);
    for (let n = lo; n <= hi; n += step) out.add(n);
  }
  return out;
}

/** Throws a RangeError for a time zone the runtime does not know. */
export function checkTimeZone(timeZone: string): void {
  formatter(timeZone);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock at `ms` in the zone. */
function wall(ms: number, timeZone: string): { month: number; day: number; weekday: number; hour: number; minute: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(parts.weekday.toLowerCase()),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

function dayMatches(c: Cron, w: ReturnType<typeof wall>): boolean {
  if (c.anyDay || c.anyWeekday) return c.days.has(w.day) && c.weekdays.has(w.weekday);
  return c.days.has(w.day) || c.weekdays.has(w.weekday);
}

/**
 * The first minute strictly after `afterMs` that the schedule matches, or undefined when none comes within
 * the horizon. It skips days and hours that cannot match, so a yearly schedule costs about a thousand steps.
 */
export function nextFire(c: Cron, timeZone: string, afterMs: number): number | undefined {
  let t = Math.floor(afterMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const end = afterMs + HORIZON_YEARS * 366 * 24 * 60 * MINUTE_MS;
  while (t <= end) {
    const w = wall(t, timeZone);
    const toNextHour = 60 - w.minute;
    // Skipping the rest of a day stops an hour short, so a 23-hour day (daylight saving) cannot skip a midnight.
    if (!c.months.has(w.month) || !dayMatches(c, w)) t += Math.max((23 - w.hour) * 60 + toNextHour - 60, toNextHour) * MINUTE_MS;
    else if (!c.hours.has(w.hour)) t += toNextHour * MINUTE_MS;
    else if (!c.minutes.has(w.minute)) t += MINUTE_MS;
    else return t;
  }
  return undefined;
}
