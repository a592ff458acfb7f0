import { describe, expect, it } from '@jest/globals';
import { DateTime, Info } from 'luxon';
import { sqlOfMs } from '../../../common/dates/wall-time';
import { placedOccurrenceDates, shiftWall, steadyOccurrenceDates, wallSeconds } from './occurrence-dates';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The days around every change of offset of `zone` in `year`, and two ordinary days. */
function daysAroundChanges(zone: string, year: number): number[] {
  const offsets = Info.normalizeZone(zone);
  const days = [Date.UTC(year, 4, 17), Date.UTC(year, 10, 2)];
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += DAY) {
    if (offsets.offset(day) !== offsets.offset(day + DAY)) days.push(day - DAY, day, day + DAY, day + 2 * DAY);
  }
  return days;
}

describe('the occurrence dates of a series without a DateTime', () => {
  // Zones with changes at 02:00, at midnight (Santiago, Havana), of 30 minutes (Lord Howe), a skipped day
  // (Apia 2011), Ramadan's (Casablanca), the southern hemisphere's, and none (Kolkata, a fixed offset).
  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'America/Santiago',
    'America/Havana',
    'Australia/Lord_Howe',
    'Australia/Sydney',
    'Pacific/Apia',
    'Africa/Casablanca',
    'Asia/Kolkata',
    'UTC+2',
    'UTC',
  ];
  const lengths = [0, 30 * 60, 3 * 3600, 2 * 86_400 + 3600];

  it.each([2011, 2031])('equals the general path wherever it answers, around every change of %i', (year) => {
    const differing: string[] = [];
    let steady = 0;
    let compared = 0;
    for (const timezone of zones) {
      for (const day of daysAroundChanges(timezone, year)) {
        for (const hour of [0, 1.5, 2.5, 12, 23.5]) {
          const local = sqlOfMs(day + hour * HOUR)!;
          for (const allDay of [false, true]) {
            for (const lengthSeconds of allDay ? [0, 2 * 86_400] : lengths) {
              const series = { timezone, allDay, template: { fields: {}, lengthSeconds } };
              const fast = steadyOccurrenceDates(series, local);
              compared++;
              if (!fast) continue;
              steady++;
              const slow = placedOccurrenceDates(series, local);
              if (JSON.stringify(fast) !== JSON.stringify(slow))
                differing.push(`${timezone} ${local} ${allDay} ${lengthSeconds}: ${JSON.stringify([fast, slow])}`);
            }
          }
        }
      }
    }
    expect(differing).toEqual([]);
    // Most of these days are next to a change: the general path takes those, the plain one the rest.
    expect(steady).toBeGreaterThan(compared / 3);
    expect(steady).toBeLessThan(compared);
  });

  it('answers an ordinary day, and leaves a time in a skipped hour to the general path', () => {
    const series = { timezone: 'Europe/Berlin', allDay: false, template: { fields: {}, lengthSeconds: 3600 } };
    expect(steadyOccurrenceDates(series, '2031-06-10 19:00:00')).toEqual({
      startLocal: '2031-06-10 19:00:00',
      endLocal: '2031-06-10 20:00:00',
      startUtc: '2031-06-10 17:00:00',
      endUtc: '2031-06-10 18:00:00',
    });
    expect(steadyOccurrenceDates(series, '2031-03-30 02:30:00')).toBeUndefined();
    expect(placedOccurrenceDates(series, '2031-03-30 02:30:00').startUtc).toBe('2031-03-30 01:30:00');
    expect(steadyOccurrenceDates({ ...series, timezone: 'Not/AZone' }, '2031-06-10 19:00:00')).toBeUndefined();
    expect(steadyOccurrenceDates(series, '0999-06-10 19:00:00')).toBeUndefined();
  });

  it('moves wall times and counts between them as luxon does', () => {
    const luxonShift = (sql: string, seconds: number) =>
      DateTime.fromSQL(sql, { zone: 'UTC' }).plus({ seconds }).toFormat('yyyy-MM-dd HH:mm:ss');
    for (const [sql, seconds] of [
      ['2031-12-31 23:30:00', 3600],
      ['2032-02-28 12:00:00', 86_400],
      ['2031-03-30 01:59:59', 1],
      ['1000-01-01 00:00:00', -1],
      ['9999-12-31 23:59:59', 1],
      ['0999-12-31 23:59:59', 1],
    ] as const) {
      expect(shiftWall(sql, seconds)).toBe(luxonShift(sql, seconds));
      // Past the year 9999 luxon writes five digits, which no SQL time has: there is nothing to count to.
      if (!sql.startsWith('9999')) expect(wallSeconds(sql, luxonShift(sql, seconds))).toBe(seconds);
    }
  });
});
