import type { DateTime } from 'luxon';
import moment from 'moment-timezone';

/**
 * The short name of a zone at an instant, from the tz database as the reference's PHP reads it:
 * `EST`/`EDT`, `CET`/`CEST`, `HKT`, `JST`, `IST`, `AEDT`, `MSK`, `SAST`, or the database's numeric form
 * (`-03`) where it has no letters; `UTC+2` for fixed offsets. (ICU, which Luxon uses, only knows a few
 * regions' names in each locale and answers `GMT+8` for Hong Kong.)
 */
export function timeZoneAbbreviation(utcInstant: DateTime | number, zone: string): string {
  if (/^UTC[+-]/i.test(zone)) return zone.toUpperCase();
  const rules = moment.tz.zone(zone);
  if (rules === null) return zone;
  // What `moment.tz(ms, zone).zoneAbbr()` answers (its zone's `abbr` of the moment's milliseconds), without
  // making a moment for every event object.
  return rules.abbr(typeof utcInstant === 'number' ? utcInstant : utcInstant.toMillis());
}

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings, from `YYYY-MM-DD HH:MM:SS`. */
export function dateDetails(sql: string): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const [date, time] = sql.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}
