import { DateTime } from 'luxon';
import type { EventDates } from '../model/event-dates';
import { eventDatesOf } from '../model/event-details-input';
import { resolveEventDates, steadyDatesOf } from '../model/event-dates';
import { resolveZone } from '../../../common/dates/date-input';
import { sqlOfMs, wallMsOf } from '../../../common/dates/wall-time';
import type { EventSeriesEntity } from './event-series.entity';

/** Seconds between two wall times, counted on the clock face (a DST change in between does not count). */
export function wallSeconds(from: string, to: string): number {
  const [a, b] = [wallMsOf(from), wallMsOf(to)];
  if (a !== undefined && b !== undefined) return Math.round((b - a) / 1000);
  const at = (sql: string) => DateTime.fromSQL(sql, { zone: 'UTC' }).toSeconds();
  return Math.round(at(to) - at(from));
}

/** A wall time moved by `seconds` on the clock face. */
export function shiftWall(sql: string, seconds: number): string {
  const wall = wallMsOf(sql);
  const moved = wall === undefined ? undefined : sqlOfMs(wall + seconds * 1000);
  return moved ?? DateTime.fromSQL(sql, { zone: 'UTC' }).plus({ seconds }).toFormat('yyyy-MM-dd HH:mm:ss');
}

/**
 * {@link occurrenceDates} without a DateTime, where it is sure: start and end far from any change of the
 * zone's offset (`steadyInstant`), in the years 1000–9999, the end not before the start. There every step of
 * the general path (placing both wall times, an all-day event's whole days) is plain arithmetic on the clock
 * face and one offset; undefined elsewhere (`occurrence-dates.spec.ts` compares both paths).
 */
export function steadyOccurrenceDates(
  series: Pick<EventSeriesEntity, 'timezone' | 'allDay' | 'template'>,
  local: string,
): EventDates | undefined {
  const start = wallMsOf(local);
  const zone = resolveZone(series.timezone);
  if (start === undefined || !zone) return undefined;
  return steadyDatesOf(start, start + series.template.lengthSeconds * 1000, zone, series.allDay);
}

/**
 * Start and end of a series' occurrence at a rule time: its wall time, and the series' length on the clock face.
 * A rule time in a spring-forward gap (02:30 on the night the clocks skip from 02:00 to 03:00) starts when RFC
 * 5545 says, at the same offset past the gap (03:30), and keeps its length from there: its end is not pinned
 * to the wall time the rule's end would have had (which made a 02:30–03:30 occurrence last no time, and a
 * 02:30–03:00 one end before it starts).
 */
export function occurrenceDates(
  series: Pick<EventSeriesEntity, 'timezone' | 'allDay' | 'template'>,
  local: string,
): EventDates {
  return steadyOccurrenceDates(series, local) ?? placedOccurrenceDates(series, local);
}

/** {@link occurrenceDates} through DateTimes: every case, the gaps and repeated hours included. */
export function placedOccurrenceDates(
  series: Pick<EventSeriesEntity, 'timezone' | 'allDay' | 'template'>,
  local: string,
): EventDates {
  const length = series.template.lengthSeconds;
  const zone = resolveZone(series.timezone);
  const at = (start: string) =>
    zone ? resolveEventDates({ start, end: shiftWall(start, length), zone, allDay: series.allDay }) : null;
  const dates = at(local);
  if (dates?.ok && (series.allDay || dates.dates.startLocal === local)) return dates.dates;
  // In a gap (or a zone that does not resolve, which eventDatesOf reports as a 400): from the start it has.
  const placed = eventDatesOf({ start: local, end: local, zoneName: series.timezone, allDay: series.allDay });
  return eventDatesOf({
    start: placed.startLocal,
    end: shiftWall(placed.startLocal, length),
    zoneName: series.timezone,
    allDay: series.allDay,
  });
}
