import type { ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import { wallMsOf } from '../../../common/dates/wall-time';
import { text } from './ical-text';

/** An event object (or the members of one a VEVENT is written from), read defensively. */
export type VeventSource = Readonly<Record<string, unknown>>;

export const utcOf = (sql: string): DateTime => DateTime.fromSQL(sql, { zone: 'utc' });

/** A UTC `YYYY-MM-DD HH:MM:SS` as a Date (DTSTAMP, CREATED): plain arithmetic where it can, as every VEVENT asks. */
export function utcDateOf(sql: string): Date {
  const ms = wallMsOf(sql);
  return ms === undefined ? utcOf(sql).toJSDate() : new Date(ms);
}

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
  const [start, end] = [String(event.utc_start_date), String(event.utc_end_date)];
  if (zone !== '' && hasZone(zone))
    return { start: utcOf(start).setZone(zone), end: utcOf(end).setZone(zone), timezone: zone };
  return { start: utcDateOf(start), end: utcDateOf(end) };
}
