import { describe, expect, it } from '@jest/globals';
import { Info } from 'luxon';
import { formatWallTime, placedByLuxon, placeWallTime, wallTimeOf, wallTimeToUtc, type WallTime } from './wall-time';

const utcOf = (local: string, zone: string) => wallTimeToUtc(wallTimeOf(local)!, zone).toFormat('yyyy-MM-dd HH:mm:ss');

describe('wall times placed in a zone (RFC 5545 §3.3.5)', () => {
  it('places an ordinary time by the offset in force', () => {
    expect(utcOf('2031-01-14 10:00:00', 'Europe/Berlin')).toBe('2031-01-14 09:00:00');
    expect(utcOf('2031-07-15 10:00:00', 'Europe/Berlin')).toBe('2031-07-15 08:00:00');
    expect(utcOf('2031-07-15 10:00:00', 'UTC')).toBe('2031-07-15 10:00:00');
  });

  it('reads a time in the repeated hour as its first occurrence, in every zone', () => {
    // Clocks go back: Berlin 03:00 CEST → 02:00 CET; New York 02:00 EDT → 01:00 EST; Sydney 03:00 AEDT → 02:00 AEST.
    expect(utcOf('2031-10-26 02:30:00', 'Europe/Berlin')).toBe('2031-10-26 00:30:00');
    expect(utcOf('2031-11-02 01:30:00', 'America/New_York')).toBe('2031-11-02 05:30:00');
    expect(utcOf('2031-04-06 02:30:00', 'Australia/Sydney')).toBe('2031-04-05 15:30:00');
  });

  it('moves a time in the skipped hour forward by the gap (the offset from before it)', () => {
    expect(utcOf('2031-03-30 02:30:00', 'Europe/Berlin')).toBe('2031-03-30 01:30:00');
    expect(utcOf('2031-03-09 02:30:00', 'America/New_York')).toBe('2031-03-09 07:30:00');
    expect(utcOf('2031-10-05 02:30:00', 'Australia/Sydney')).toBe('2031-10-04 16:30:00');
  });

  it('reads and writes YYYY-MM-DD HH:MM:SS, refusing what is no time', () => {
    expect(formatWallTime(wallTimeOf('2031-02-28 23:59:59')!)).toBe('2031-02-28 23:59:59');
    expect(wallTimeOf('2031-02-29 10:00:00')).toBeUndefined();
    expect(wallTimeOf('2031-01-01 24:00:00')).toBeUndefined();
    expect(wallTimeOf('2031-01-01T10:00:00')).toBeUndefined();
  });
});

describe('the fast placement of a wall time', () => {
  // Every zone that changes its offset, through the days around its changes, and two ordinary times: the fast path must give luxon's answer, instant and offset.
  const zones = Intl.supportedValuesOf('timeZone');
  const wallOfLocal = (ms: number): WallTime => {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  };

  // 1985 (older rules) every third hour, to keep the spec quick; 2031 every hour.
  it.each([
    [1985, 3],
    [2031, 1],
  ])('gives luxon’s placement in every zone around every change of offset in %i (every %i h)', (year, step) => {
    let compared = 0;
    const differing: string[] = [];
    for (const zone of zones) {
      const start = Date.UTC(year, 0, 1);
      const changes: number[] = [];
      const offsets = Info.normalizeZone(zone);
      let previous = offsets.offset(start);
      for (let day = start; day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
        const next = offsets.offset(day + 86_400_000);
        if (next !== previous) changes.push(day);
        previous = next;
      }
      const samples = [Date.UTC(year, 4, 17, 11, 45, 30), Date.UTC(year, 10, 2, 23, 59, 59)];
      for (const change of changes) {
        for (let h = -30; h <= 54; h += step) samples.push(change + h * 3_600_000 + 30 * 60_000);
      }
      for (const local of samples) {
        const wall = wallOfLocal(local);
        const fast = placeWallTime(wall, zone);
        const slow = placedByLuxon(wall, zone);
        compared++;
        if (fast.toMillis() !== slow.toMillis() || fast.offset !== slow.offset || fast.zoneName !== slow.zoneName) {
          differing.push(`${zone} ${formatWallTime(wall)}: ${fast.toISO()} against ${slow.toISO()}`);
        }
        if (!wallTimeToUtc(wall, zone).equals(slow.toUTC())) differing.push(`${zone} ${formatWallTime(wall)} in UTC`);
      }
    }
    expect(differing).toEqual([]);
    expect(compared).toBeGreaterThan(zones.length * 2);
  });

  it('leaves what is no date, and odd years, to luxon', () => {
    const feb30 = { year: 2031, month: 2, day: 30, hour: 10, minute: 0, second: 0 };
    expect(placeWallTime(feb30, 'Europe/Berlin').isValid).toBe(false);
    const early = { year: 50, month: 3, day: 1, hour: 10, minute: 0, second: 0 };
    expect(placeWallTime(early, 'UTC').toMillis()).toBe(placedByLuxon(early, 'UTC').toMillis());
    expect(placeWallTime(early, 'UTC').year).toBe(50);
    expect(placeWallTime({ ...feb30, day: 1 }, 'Not/AZone').isValid).toBe(false);
  });
});
