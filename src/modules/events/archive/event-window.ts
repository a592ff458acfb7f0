import { DateTime, type Zone } from 'luxon';
import { parseDateInput, toSqlDateTime } from '../../../common/dates/date-input';

/** The date filters of a list request, as given (behaviour.md §7). */
export interface DateFilterInput {
  start_date?: string | number;
  end_date?: string | number;
  starts_before?: string | number;
  starts_after?: string | number;
  ends_before?: string | number;
  ends_after?: string | number;
  strict_dates?: boolean;
}

/** Bounds in UTC (`YYYY-MM-DD HH:MM:SS`): `start ≥ startFrom`, `end ≤ endUntil`, and the exclusive four. */
export interface DateWindow {
  startFrom?: string;
  endUntil?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  /** The effective `start_date` / `end_date`, in the site zone, for `rest_url`. */
  effective: { start_date?: string; end_date?: string };
}

export type DateWindowResult = { ok: true; window: DateWindow } | { ok: false; invalid: string[] };

const EXCLUSIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/**
 * Turns list date filters into UTC bounds. Without any date filter the window is 00:00:00 yesterday to
 * 23:59:59 of the day 24 months from now (site zone), each bound defaulting on its own. Not strict (default): `start_date` moves to the
 * start of its day and `end_date` and the four exclusive bounds to the end of theirs; strict keeps the
 * given times. Any exclusive bound drops the default window; an explicit `start_date`/`end_date` still applies.
 */
export function resolveDateWindow(input: DateFilterInput, zone: Zone, now: DateTime): DateWindowResult {
  const strict = input.strict_dates === true;
  const invalid: string[] = [];
  const read = (name: keyof DateFilterInput, snap: 'start' | 'end'): DateTime | undefined => {
    const value = input[name];
    if (value === undefined || typeof value === 'boolean') return undefined;
    const parsed = parseDateInput(value, zone);
    if (!parsed) {
      invalid.push(name);
      return undefined;
    }
    const local = parsed.setZone(zone);
    if (strict) return local;
    return snap === 'start' ? local.startOf('day') : local.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  };

  let start = read('start_date', 'start');
  let end = read('end_date', 'end');
  const exclusive = Object.fromEntries(EXCLUSIVE.map((name) => [name, read(name, 'end')])) as Record<
    (typeof EXCLUSIVE)[number],
    DateTime | undefined
  >;
  if (invalid.length > 0) return { ok: false, invalid };

  // Each default stands on its own: giving only one bound keeps the other's default.
  if (!EXCLUSIVE.some((name) => exclusive[name] !== undefined)) {
    const today = now.setZone(zone);
    start ??= today.minus({ days: 1 }).startOf('day');
    end ??= today.plus({ months: 24 }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  }
  const utc = (dt: DateTime | undefined) => (dt ? toSqlDateTime(dt.toUTC()) : undefined);
  return {
    ok: true,
    window: {
      startFrom: utc(start),
      endUntil: utc(end),
      startsBefore: utc(exclusive.starts_before),
      startsAfter: utc(exclusive.starts_after),
      endsBefore: utc(exclusive.ends_before),
      endsAfter: utc(exclusive.ends_after),
      effective: {
        start_date: start ? toSqlDateTime(start) : undefined,
        end_date: end ? toSqlDateTime(end) : undefined,
      },
    },
  };
}

/** The next UTC day of `YYYY-MM-DD`, as the SQL timestamp of its midnight. */
export function nextDayStart(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.toISOString().slice(0, 10)} 00:00:00`;
}
