import type { DateTime, Zone } from 'luxon';
import { parseDateInput, toSqlDateTime } from '../../../common/dates/date-input';

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
