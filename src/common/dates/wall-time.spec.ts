import { describe, expect, it } from '@jest/globals';
import { formatWallTime, wallTimeOf, wallTimeToUtc } from './wall-time';

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
