import { describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import moment from 'moment-timezone';
import { dateDetails, timeZoneAbbreviation } from './time-zone-name';

describe('timeZoneAbbreviation', () => {
  it.each([
    ['2025-01-15T12:00:00Z', 'America/New_York', 'EST'],
    ['2025-07-15T12:00:00Z', 'America/New_York', 'EDT'],
    ['2025-01-15T12:00:00Z', 'Europe/Berlin', 'CET'],
    ['2025-07-15T12:00:00Z', 'Europe/Berlin', 'CEST'],
    ['2025-07-15T12:00:00Z', 'UTC', 'UTC'],
    ['2025-07-15T12:00:00Z', 'UTC+2', 'UTC+2'],
    ['2025-07-15T12:00:00Z', 'Asia/Hong_Kong', 'HKT'],
    ['2025-07-15T12:00:00Z', 'Asia/Tokyo', 'JST'],
    ['2025-07-15T12:00:00Z', 'Asia/Kolkata', 'IST'],
    ['2025-01-15T12:00:00Z', 'Australia/Sydney', 'AEDT'],
    ['2025-07-15T12:00:00Z', 'Australia/Sydney', 'AEST'],
    ['2025-01-15T12:00:00Z', 'Europe/Moscow', 'MSK'],
    ['2025-01-15T12:00:00Z', 'Africa/Johannesburg', 'SAST'],
    ['2025-07-15T12:00:00Z', 'Europe/London', 'BST'],
    ['2025-01-15T12:00:00Z', 'America/Sao_Paulo', '-03'],
  ])('%s in %s is %s', (instant, zone, abbr) => {
    expect(timeZoneAbbreviation(DateTime.fromISO(instant, { zone: 'utc' }), zone)).toBe(abbr);
  });

  it("answers what moment's own zoneAbbr does, in every zone, from milliseconds", () => {
    const instants = ['1985-03-31T00:30:00Z', '2025-01-15T12:00:00Z', '2031-10-26T00:59:59Z', '2031-10-26T01:00:00Z'];
    const differing: string[] = [];
    for (const zone of moment.tz.names()) {
      for (const instant of instants) {
        const ms = Date.parse(instant);
        const expected = moment.tz(ms, zone).zoneAbbr();
        if (timeZoneAbbreviation(ms, zone) !== expected) differing.push(`${zone} ${instant}`);
      }
    }
    expect(differing).toEqual([]);
    expect(moment.tz.names().length).toBeGreaterThan(400);
  });
});

describe('dateDetails', () => {
  it('splits a date into zero-padded parts', () => {
    expect(dateDetails('2025-03-07 09:05:00')).toEqual({
      year: '2025',
      month: '03',
      day: '07',
      hour: '09',
      minutes: '05',
      seconds: '00',
    });
  });
});
