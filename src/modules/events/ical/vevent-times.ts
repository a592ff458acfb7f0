import type { ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import { text } from './ical-text';

/** An event object (or the members of one a VEVENT is written from), read defensively. */
export type VeventSource = Readonly<Record<string, unknown>>;

export const utcOf = (sql: string): DateTime => DateTime.fromSQL(sql, { zone: 'utc' });

/**
 * Start and end: all-day events as dates (the end exclusive, the day after the last), timed events in
 * their own zone when a VTIMEZONE can describe it, else in UTC (fixed offsets such as `UTC+2`).
 */
export function timesOf(
  event: VeventSource,
  hasZone: (zone: string) => boolean,
): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  const zone = text(event.timezone);
  if (event.all_day === true) {
    const day = (local: string) => DateTime.fromISO(local.slice(0, 10), { zone: 'utc' });
    return {
      allDay: true,
      start: day(String(event.start_date)),
      end: day(String(event.end_date)).plus({ days: 1 }),
    };
  }
  const start = utcOf(String(event.utc_start_date));
  const end = utcOf(String(event.utc_end_date));
  if (zone !== '' && hasZone(zone)) return { start: start.setZone(zone), end: end.setZone(zone), timezone: zone };
  return { start: start.toJSDate(), end: end.toJSDate() };
}
