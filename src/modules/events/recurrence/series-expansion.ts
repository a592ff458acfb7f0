import type ICAL from 'ical.js';
import type { DateTime, Zone } from 'luxon';
import { RRule } from 'rrule';
import { formatWallTime, wallTimeToUtc, type WallTime } from '../../../common/dates/wall-time';
import { boundedBetween, MAX_RULE_CANDIDATES } from './bounded-rule';
import type { LineDate, RecurrenceSet } from './recurrence-lines';

/**
 * Most occurrences a series may have: a daily rule for ten years (3,653) fits. A write of a series is refused
 * over it; the horizon's extension of an open rule (`limitFromNow`) counts only the occurrences from now on, so
 * a series that runs for decades keeps growing.
 */
export const MAX_OCCURRENCES = 4000;
/** How many times the limit an open rule's whole run may hold, past occurrences included (a bound on the work). */
const PAST_FACTOR = 25;
/** How far ahead an unbounded rule (no COUNT, no UNTIL) is expanded; the horizon moves forward by itself. */
export const HORIZON_DAYS = 730;
/** How far a bounded rule is looked through for its occurrences (a COUNT of leap days spans decades). */
const MAX_SPAN_YEARS = 100;

/** One occurrence: the wall time it is at in the event's zone (its RECURRENCE-ID), and that instant. */
export interface Occurrence {
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone, as the rule produced it (a skipped hour is kept as named). */
  local: string;
  startUtc: DateTime;
}

export type Expansion =
  | {
      ok: true;
      occurrences: Occurrence[];
      /** Null for a series that ends; else where expansion stopped. */ horizonUtc: DateTime | null;
    }
  | { ok: false; problem: string };

export interface ExpansionOptions {
  /** The first occurrence's wall time in `zone` (DTSTART): always an occurrence, matching the rule or not. */
  start: WallTime;
  zone: Zone;
  /** Now: an unbounded rule is expanded to `HORIZON_DAYS` after it. */
  nowUtc: DateTime;
  limit?: number;
  /** For an open rule: the limit counts the occurrences from now to the horizon only (its extension). */
  limitFromNow?: boolean;
  horizonDays?: number;
}

/** A wall time as rrule counts in: a Date whose UTC fields are the wall time ("floating" time). */
const floating = (wall: WallTime): Date =>
  new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
const wallOf = (date: Date): WallTime => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
  hour: date.getUTCHours(),
  minute: date.getUTCMinutes(),
  second: date.getUTCSeconds(),
});

/**
 * Every occurrence of a series in start order, DST-safe: rules are counted in wall-clock time in the event's
 * zone (a weekly 10:00 stays at 10:00 local time across a change of offset), and each wall time is then
 * placed in the zone as RFC 5545 says (`wallTimeToUtc`). UNTIL is compared as the instant it names. COUNT
 * counts the occurrences DTSTART and the rule make together (DTSTART first, on the rule's pattern or not),
 * before EXDATE takes any out. Refused when a series would have more
 * than `limit` occurrences; an unbounded rule stops at the horizon.
 */
export function expandSeries(set: RecurrenceSet, options: ExpansionOptions): Expansion {
  const limit = options.limit ?? MAX_OCCURRENCES;
  const horizonUtc = options.nowUtc.plus({ days: options.horizonDays ?? HORIZON_DAYS });
  // Each wall time is placed in the zone once: placing is most of an expansion's cost (luxon asks Intl).
  const walls = new Map<string, DateTime>();
  const add = (wall: WallTime, at = wallTimeToUtc(wall, options.zone)) => walls.set(formatWallTime(wall), at);
  add(options.start);
  let unbounded = false;
  for (const rule of set.rules) {
    const untilUtc = rule.until ? untilOf(rule.until, options.zone) : null;
    const bounded = rule.count !== null || untilUtc !== null;
    unbounded ||= !bounded;
    const withoutUntil = rule.clone();
    withoutUntil.until = null;
    const rrule = new RRule({ ...RRule.parseString(withoutUntil.toString()), dtstart: floating(options.start) });
    // The floating window's end: a day of slack either side of the instants, which differ by the zone's offset.
    const end = untilUtc ?? (bounded ? options.nowUtc.plus({ years: MAX_SPAN_YEARS }) : horizonUtc);
    const found = boundedBetween(rrule, floating(options.start), new Date(end.toMillis() + 86_400_000), {
      candidates: MAX_RULE_CANDIDATES,
      // An open rule's past occurrences are not counted against the limit, but still looked through.
      occurrences: !bounded && options.limitFromNow ? limit * PAST_FACTOR : limit,
    });
    if (!found.ok) {
      return { ok: false, problem: found.reason === 'occurrences' ? tooMany(limit) : tooRare(rule) };
    }
    // RFC 5545 §3.3.10: DTSTART always counts as the first occurrence. A start off the rule's pattern (a
    // Tuesday for BYSETPOS=2 of TU,TH) is not among the rule's own dates, so it takes one of COUNT's places.
    const startMs = floating(options.start).getTime();
    const offPattern = rule.count !== null && !found.dates.some((d) => d.getTime() === startMs);
    const dates = offPattern ? found.dates.slice(0, Math.max(0, rule.count! - 1)) : found.dates;
    for (const date of dates) {
      const wall = wallOf(date);
      const at = wallTimeToUtc(wall, options.zone);
      if ((untilUtc && at > untilUtc) || (!bounded && at > horizonUtc)) continue;
      add(wall, at);
    }
  }
  for (const date of set.rdates) add(wallFor(date, options));
  // An EXDATE instant takes out the occurrence at that instant; a whole-day one, that day's occurrences.
  const excluded = new Set(
    set.exdates.map((d) =>
      d.kind === 'day' ? formatWallTime(d.wall).slice(0, 10) : formatWallTime(wallFor(d, options)),
    ),
  );
  const occurrences = [...walls]
    .filter(([local]) => !excluded.has(local) && !excluded.has(local.slice(0, 10)))
    .map(([local, startUtc]) => ({ local, startUtc }))
    .sort((a, b) => a.startUtc.toMillis() - b.startUtc.toMillis() || (a.local < b.local ? -1 : 1));
  const fromNow = unbounded && options.limitFromNow === true;
  const counted = fromNow ? occurrences.filter((o) => o.startUtc >= options.nowUtc).length : occurrences.length;
  if (counted > limit) return { ok: false, problem: tooMany(limit) };
  return { ok: true, occurrences, horizonUtc: unbounded ? horizonUtc : null };
}

/**
 * Whether one of the rules itself gives `start` (DTSTART on the rule's pattern). RFC 5545 makes DTSTART the
 * first occurrence either way, but ical.js drops one that is off the pattern (a Wednesday under BYDAY=FR).
 */
export function rulesGiveStart(set: RecurrenceSet, start: WallTime): boolean {
  const at = floating(start);
  return set.rules.some((rule) => {
    const bare = rule.clone();
    bare.until = null;
    bare.count = null;
    const rrule = new RRule({ ...RRule.parseString(bare.toString()), dtstart: at });
    // Only DTSTART's own instant is asked for, within the candidate budget: a rule that matches rarely, or
    // (without its UNTIL) never, must not be searched until the year 9999 on the request loop.
    const found = boundedBetween(rrule, at, at, { candidates: MAX_RULE_CANDIDATES, occurrences: 1 });
    return found.ok && found.dates.some((d) => d.getTime() === at.getTime());
  });
}

const tooMany = (limit: number) => `would have more than ${limit} occurrences`;

/** A rule that matched too rarely for its budget, named with the parts that filter its candidates. */
function tooRare(rule: ICAL.Recur): string {
  const line = `RRULE:${rule.toString()}`;
  const filters = line
    .slice(6)
    .split(';')
    .filter((part) => /^BY/.test(part))
    .sort((a, b) => Number(b.startsWith('BYSETPOS')) - Number(a.startsWith('BYSETPOS')));
  return (
    `${line} matches too rarely: it would look through more than ${MAX_RULE_CANDIDATES} candidate instants ` +
    `for its occurrences${filters.length ? ` (${filters.join(', ')} ${filters.length > 1 ? 'leave' : 'leaves'} too few)` : ''}`
  );
}

/** An RDATE or EXDATE as a wall time in the event's zone (a whole day at the first occurrence's time). */
function wallFor(date: LineDate, options: ExpansionOptions): WallTime {
  if (date.kind === 'day') {
    const { hour, minute, second } = options.start;
    return { ...date.wall, hour, minute, second };
  }
  const local = date.utc.setZone(options.zone);
  return {
    year: local.year,
    month: local.month,
    day: local.day,
    hour: local.hour,
    minute: local.minute,
    second: local.second,
  };
}

/** UNTIL as an instant: UTC as given, a local time in the event's zone, a date through its last second. */
function untilOf(until: ICAL.Time, zone: Zone): DateTime {
  const wall = {
    year: until.year,
    month: until.month,
    day: until.day,
    hour: until.hour,
    minute: until.minute,
    second: until.second,
  };
  if (until.isDate) Object.assign(wall, { hour: 23, minute: 59, second: 59 });
  return wallTimeToUtc(wall, until.zone?.tzid === 'UTC' ? 'UTC' : zone);
}
