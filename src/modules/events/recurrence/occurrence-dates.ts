import { DateTime } from 'luxon';
import type { EventDates } from '../model/event-dates';
import { eventDatesOf } from '../model/event-details-input';
import type { EventSeriesEntity } from './event-series.entity';

/** Seconds between two wall times, counted on the clock face (a DST change in between does not count). */
export function wallSeconds(from: string, to: string): number {
  const at = (sql: string) => DateTime.fromSQL(sql, { zone: 'UTC' }).toSeconds();
  return Math.round(at(to) - at(from));
}

/** A wall time moved by `seconds` on the clock face. */
export const shiftWall = (sql: string, seconds: number): string =>
  DateTime.fromSQL(sql, { zone: 'UTC' }).plus({ seconds }).toFormat('yyyy-MM-dd HH:mm:ss');

/** Start and end of a series' occurrence at a rule time: its wall time, and the series' length on the clock face. */
export function occurrenceDates(
  series: Pick<EventSeriesEntity, 'timezone' | 'allDay' | 'template'>,
  local: string,
): EventDates {
  return eventDatesOf({
    start: local,
    end: shiftWall(local, series.template.lengthSeconds),
    zoneName: series.timezone,
    allDay: series.allDay,
  });
}
