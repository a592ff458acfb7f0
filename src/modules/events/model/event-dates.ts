import type { DateTime, Zone } from 'luxon';
import { localWallMs, parseDateInput, toSqlDateTime } from '../../../common/dates/date-input';
import { sqlOfMs, steadyInstant } from '../../../common/dates/wall-time';

const DAY_MS = 86_400_000;

export interface EventDates {
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
}

export type EventDatesResult =
  { ok: true; dates: EventDates } | { ok: false; problems: Record<string, 'date_time' | 'end_before_start'> };

/**
 * Start and end of an event from client input (behaviour.md §6): read in the event's zone, all-day
 * events stretched to 00:00:00–23:59:59 of their days, an end before the start refused.
 * `start`/`end` may be undefined on update: the stored local value (in the zone) is used instead.
 */
export function resolveEventDates(input: {
  start: unknown;
  end: unknown;
  zone: Zone;
  allDay: boolean;
  storedStartLocal?: string;
  storedEndLocal?: string;
}): EventDatesResult {
  const steady = steadyEventDates(input);
  return steady ? { ok: true, dates: steady } : placedEventDates(input);
}

/** {@link resolveEventDates} through DateTimes: every form and case, and what is wrong with a date. */
export function placedEventDates(input: Parameters<typeof resolveEventDates>[0]): EventDatesResult {
  const problems: Record<string, 'date_time' | 'end_before_start'> = {};
  const read = (value: unknown, stored: string | undefined, name: string): DateTime | null => {
    const source = value ?? stored;
    const parsed = source === undefined ? null : parseDateInput(source, input.zone);
    if (!parsed) problems[name] = 'date_time';
    return parsed ? parsed.setZone(input.zone) : null;
  };
  let start = read(input.start, input.storedStartLocal, 'start_date');
  let end = read(input.end, input.storedEndLocal, 'end_date');
  if (!start || !end) return { ok: false, problems };
  if (input.allDay) {
    start = start.startOf('day');
    end = end.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  }
  start = start.set({ millisecond: 0 });
  end = end.set({ millisecond: 0 });
  if (end < start) return { ok: false, problems: { end_date: 'end_before_start' } };
  return {
    ok: true,
    dates: {
      startLocal: toSqlDateTime(start),
      endLocal: toSqlDateTime(end),
      startUtc: toSqlDateTime(start.toUTC()),
      endUtc: toSqlDateTime(end.toUTC()),
    },
  };
}

/**
 * {@link resolveEventDates} without a DateTime, where it is sure: both sides in the local form, far from any
 * change of the zone's offset (`steadyInstant`), in the years 1000–9999, the end not before the start. There
 * each step of the general path (placing both wall times, an all-day event's whole days) is arithmetic on the
 * clock face and one offset; undefined elsewhere, where the general path decides or says what is wrong
 * (`event-dates.spec.ts` compares both).
 */
export function steadyEventDates(input: Parameters<typeof resolveEventDates>[0]): EventDates | undefined {
  const start = localWallMs(input.start ?? input.storedStartLocal);
  const end = localWallMs(input.end ?? input.storedEndLocal);
  return start === undefined || end === undefined ? undefined : steadyDatesOf(start, end, input.zone, input.allDay);
}

/**
 * An event's dates from its start and end wall times (milliseconds counted as if in UTC) where both are far
 * from any change of the zone's offset: an all-day event's whole days, both instants from the one offset, the
 * end not before the start, in the years 1000–9999. Undefined elsewhere. The plain path of both a write's
 * dates ({@link steadyEventDates}) and a series' occurrences (`steadyOccurrenceDates`).
 */
export function steadyDatesOf(start: number, end: number, zone: Zone, allDay: boolean): EventDates | undefined {
  if (allDay) {
    start = Math.floor(start / DAY_MS) * DAY_MS;
    end = Math.floor(end / DAY_MS) * DAY_MS + DAY_MS - 1000;
  }
  const startUtc = steadyInstant(start, zone);
  const endUtc = steadyInstant(end, zone);
  if (startUtc === undefined || endUtc === undefined || endUtc < startUtc) return undefined;
  const [startLocal, endLocal, s, e] = [sqlOfMs(start), sqlOfMs(end), sqlOfMs(startUtc), sqlOfMs(endUtc)];
  return startLocal && endLocal && s && e ? { startLocal, endLocal, startUtc: s, endUtc: e } : undefined;
}
