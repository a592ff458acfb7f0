import { describe, expect, it } from '@jest/globals';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { hasVtimezone, spanOf, vtimezoneOf } from './vtimezones';

/** The UTC instant ical.js computes for a local wall time under this VTIMEZONE alone. */
function utcThrough(vtimezone: string, zone: string, local: string): string {
  const component = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\n${vtimezone}END:VCALENDAR\r\n`));
  const timezone = new ICAL.Timezone(component.getFirstSubcomponent('vtimezone')!);
  const time = ICAL.Time.fromDateTimeString(local.replace(' ', 'T'));
  time.zone = timezone;
  expect(timezone.tzid).toBe(zone);
  return time.toJSDate().toISOString().slice(0, 19);
}

describe('VTIMEZONE from the runtime’s zone rules', () => {
  it.each([
    ['Africa/Cairo', '2024-07-10 18:00:00'],
    ['Africa/Cairo', '2022-07-10 18:00:00'],
    ['America/Sao_Paulo', '2018-12-01 20:00:00'],
    ['America/Sao_Paulo', '2024-12-01 20:00:00'],
    ['Asia/Tehran', '2021-07-01 12:00:00'],
    ['Asia/Tehran', '2023-07-01 12:00:00'],
    ['America/Asuncion', '2025-01-15 12:00:00'],
    ['Australia/Lord_Howe', '2024-01-15 12:00:00'],
    ['Asia/Kolkata', '2024-01-15 12:00:00'],
    ['Europe/Berlin', '2031-03-30 01:30:00'],
    ['Europe/Berlin', '2031-03-30 03:30:00'],
    // Greenland changed its rules in 2023-24: the first onset of an observance that lists RDATEs, which
    // ical.js skipped.
    ['America/Nuuk', '2024-04-15 12:00:00'],
    ['America/Godthab', '2024-04-15 12:00:00'],
    ['America/Scoresbysund', '2024-04-15 12:00:00'],
    ['America/Nuuk', '2024-01-15 12:00:00'],
  ])('%s at %s: the instant the runtime gives', (zone, local) => {
    const vtimezone = vtimezoneOf(zone, spanOf([local]))!;
    const expected = DateTime.fromSQL(local, { zone }).toUTC().toISO({ includeOffset: false })!.slice(0, 19);
    expect(utcThrough(vtimezone, zone, local)).toBe(expected);
  });

  it('writes each change of offset once, in lines a client may read', () => {
    const berlin = vtimezoneOf('Europe/Berlin', { fromYear: 2024, toYear: 2024 })!;
    // 2023 to 2025: three springs forward and three falls back, the first of each also an RDATE (ical.js reads
    // no DTSTART onset beside RDATEs).
    expect(berlin.match(/^RDATE:\d{8}T020000$/gm)).toEqual([
      'RDATE:20230326T020000',
      'RDATE:20240331T020000',
      'RDATE:20250330T020000',
    ]);
    expect(berlin.match(/^DTSTART:\d{8}T020000$/gm)).toEqual(['DTSTART:20230326T020000']);
    expect(berlin.match(/^RDATE:\d{8}T030000$/gm)).toHaveLength(3);
    expect(berlin).toContain('TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200');
    expect(berlin.endsWith('END:VTIMEZONE\r\n')).toBe(true);
    for (const line of berlin.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const tokyo = vtimezoneOf('Asia/Tokyo', { fromYear: 2024, toYear: 2024 })!;
    expect(tokyo.match(/^BEGIN:(STANDARD|DAYLIGHT)$/gm)).toEqual(['BEGIN:STANDARD']);
    expect(tokyo).toContain('TZOFFSETTO:+0900');
    expect(vtimezoneOf('Asia/Kolkata', { fromYear: 2024, toYear: 2024 })).toContain('TZOFFSETTO:+0530');
  });

  it('describes no zone for UTC or a name the runtime does not know', () => {
    expect(hasVtimezone('UTC')).toBe(false);
    expect(hasVtimezone('Mars/Olympus_Mons')).toBe(false);
    expect(vtimezoneOf('UTC', { fromYear: 2024, toYear: 2024 })).toBeNull();
    expect(hasVtimezone('America/Sao_Paulo')).toBe(true);
  });

  it('spans the years of the instants it is given', () => {
    expect(spanOf(['2031-03-30 01:00:00', '2018-12-01 22:00:00', '2024-01-01 00:00:00'])).toEqual({
      fromYear: 2018,
      toYear: 2031,
    });
  });
});
