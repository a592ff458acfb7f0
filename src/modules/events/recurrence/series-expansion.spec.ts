import { describe, expect, it } from '@jest/globals';
import { DateTime, IANAZone } from 'luxon';
import { wallTimeOf } from '../../../common/dates/wall-time';
import { parseRecurrence, type RecurrenceSet } from './recurrence-lines';
import { expandSeries, HORIZON_DAYS, MAX_OCCURRENCES, rulesGiveStart } from './series-expansion';

const NOW = DateTime.fromISO('2031-01-01T00:00:00Z', { zone: 'utc' });

function setOf(lines: unknown, zone = 'Europe/Berlin'): RecurrenceSet {
  const parsed = parseRecurrence(lines, zone);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.set;
}

function expand(lines: string[], start: string, zone = 'Europe/Berlin', extra: { limit?: number } = {}) {
  const result = expandSeries(setOf(lines, zone), {
    start: wallTimeOf(start)!,
    zone: IANAZone.create(zone),
    nowUtc: NOW,
    ...extra,
  });
  if (!result.ok) throw new Error(result.problem);
  return result;
}

const locals = (lines: string[], start: string, zone?: string) =>
  expand(lines, start, zone).occurrences.map((o) => o.local);
const utcs = (lines: string[], start: string, zone?: string) =>
  expand(lines, start, zone).occurrences.map((o) => o.startUtc.toFormat('yyyy-MM-dd HH:mm'));

describe('recurrence lines', () => {
  const problem = (lines: unknown) => {
    const parsed = parseRecurrence(lines, 'Europe/Berlin');
    return parsed.ok ? 'accepted' : parsed.problem;
  };

  it('takes RRULE, RDATE and EXDATE lines with TZID, UTC, floating and date values', () => {
    const set = setOf([
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5',
      'RDATE;TZID=America/New_York:20310301T120000,20310302T120000',
      'EXDATE:20310114T090000Z',
      'EXDATE;VALUE=DATE:20310121',
      'RDATE:20310401T100000',
    ]);
    expect([set.rules.length, set.rdates.length, set.exdates.length, set.lines.length]).toEqual([1, 3, 2, 5]);
  });

  it('refuses what is not a series, naming the line and the reason', () => {
    expect(problem('RRULE:FREQ=DAILY')).toBe('must be a list of RRULE, RDATE and EXDATE lines');
    expect(problem([])).toBe('needs an RRULE or an RDATE line');
    expect(problem(['EXDATE:20310101T100000'])).toBe('needs an RRULE or an RDATE line');
    expect(problem(['EXRULE:FREQ=DAILY'])).toMatch(/^line 1: EXRULE is not supported/);
    expect(problem(['RRULE:FREQ=DAILY', 'DTSTART:20310101T100000'])).toBe(
      'line 2: must start with RRULE:, RDATE or EXDATE',
    );
    expect(problem(['RRULE:FREQ=WEEKLY;BYDAY=XX'])).toMatch(/^line 1: BYDAY=XX: XX is not a weekday/);
    expect(problem(['RRULE:FREQ=DAILY;FOO=1'])).toBe('line 1: FOO is not an RRULE part');
    expect(problem(['RRULE:FREQ=DAILY;INTERVAL=0'])).toBe('line 1: INTERVAL=0: 0 is not a whole number from 1');
    expect(problem(['RRULE:BYDAY=MO'])).toBe('line 1: FREQ is required');
    expect(problem(['RRULE:FREQ=HOURLY'])).toMatch(/^line 1: FREQ=HOURLY is not supported/);
    expect(problem(['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20310101T000000Z'])).toBe(
      'line 1: must not have both COUNT and UNTIL',
    );
    expect(problem(['RDATE;TZID=Mars/Olympus:20310101T100000'])).toBe(
      'line 1: TZID Mars/Olympus is not a known time zone',
    );
    expect(problem(['RRULE:FREQ=DAILY\r\nRRULE:FREQ=WEEKLY'])).toMatch(/control characters/);
    expect(problem([null])).toBe('line 1: must be a string');
    expect(problem([{ rule: 'x' }])).toBe('line 1: must be a string');
    expect(problem(Array(101).fill('RRULE:FREQ=DAILY'))).toBe('must have at most 100 lines');
    expect(problem([`RRULE:FREQ=DAILY;${'BYMONTH=1;'.repeat(120)}`])).toMatch(/at most 1000 characters/);
  });

  it('refuses malformed and impossible dates and rule values, naming the line, the part and the value', () => {
    const formats = '(YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, Z for UTC)';
    expect(problem(['RRULE:FREQ=DAILY', 'EXDATE:2027'])).toBe(`line 2: 2027 is not a date ${formats}`);
    expect(problem(['RRULE:FREQ=DAILY', 'EXDATE:20270306T10000'])).toBe(
      `line 2: 20270306T10000 is not a date ${formats}`,
    );
    expect(problem(['RDATE:20270306T1000'])).toBe(`line 1: 20270306T1000 is not a date ${formats}`);
    expect(problem(['RDATE:20270101T100000,2027'])).toBe(`line 1: 2027 is not a date ${formats}`);
    expect(problem(['RDATE:20271340T100000'])).toBe('line 1: 20271340T100000 is not a date that exists');
    expect(problem(['RDATE;VALUE=DATE:20270230'])).toBe('line 1: 20270230 is not a date that exists');
    expect(problem(['RDATE:20270306T246000'])).toBe('line 1: 20270306T246000 is not a date that exists');
    expect(problem(['RRULE:FREQ=DAILY;UNTIL=2027133'])).toBe(`line 1: UNTIL=2027133: 2027133 is not a date ${formats}`);
    expect(problem(['RRULE:FREQ=DAILY;UNTIL=20270229'])).toBe(
      'line 1: UNTIL=20270229: 20270229 is not a date that exists',
    );
    expect(problem(['RRULE:FREQ=DAILY;UNTIL=20280229'])).toBe('accepted');
    expect(problem(['RRULE:FREQ=DAILY;BYMONTH=13'])).toBe('line 1: BYMONTH=13: 13 is outside 1..12');
    expect(problem(['RRULE:FREQ=DAILY;BYHOUR=24'])).toBe('line 1: BYHOUR=24: 24 is outside 0..23');
    expect(problem(['RRULE:FREQ=MONTHLY;BYMONTHDAY=0'])).toBe('line 1: BYMONTHDAY=0: 0 is outside ±1..31');
    expect(problem(['RRULE:FREQ=MONTHLY;BYMONTHDAY=-31'])).toBe('accepted');
    expect(problem(['RRULE:FREQ=MONTHLY;BYSETPOS=0'])).toBe('line 1: BYSETPOS=0: 0 is outside ±1..366');
    expect(problem(['RRULE:FREQ=MONTHLY;BYDAY=6MO'])).toBe('line 1: BYDAY=6MO: 6MO: the ordinal is outside ±1..5');
    expect(problem(['RRULE:FREQ=YEARLY;BYDAY=-53MO'])).toBe('accepted');
    expect(problem(['RRULE:FREQ=WEEKLY;BYDAY=1MO'])).toMatch(/needs FREQ=MONTHLY or FREQ=YEARLY/);
    expect(problem(['RRULE:FREQ=MONTHLY;COUNT=0'])).toBe('line 1: COUNT=0: 0 is not a whole number from 1');
    expect(problem(['RRULE:FREQ=MONTHLY;COUNT=-1'])).toBe('line 1: COUNT=-1: -1 is not a whole number from 1');
    expect(problem(['RRULE:FREQ=MONTHLY;COUNT=3;COUNT=4'])).toBe('line 1: COUNT is given twice');
    expect(problem(['RRULE:FREQ=FORTNIGHTLY'])).toBe('line 1: FREQ=FORTNIGHTLY: FORTNIGHTLY is not a frequency');
    // A DATE where the line's values are date-times (no VALUE=DATE), and the other way round: the value named.
    expect(problem(['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20270306T100000,20270307'])).toBe(
      "line 2: 20270307 is a date, but the line's values are date-times (VALUE=DATE makes them dates)",
    );
    expect(problem(['RRULE:FREQ=DAILY;COUNT=3', 'RDATE;VALUE=DATE:20270309T100000'])).toBe(
      'line 2: 20270309T100000 is a date-time, but VALUE=DATE asks for dates',
    );
  });
});

describe('series expansion', () => {
  it('keeps a weekly 10:00 at 10:00 local time across both changes of offset (Berlin)', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=4'];
    expect(locals(lines, '2031-03-23 10:00:00')).toEqual([
      '2031-03-23 10:00:00',
      '2031-03-30 10:00:00',
      '2031-04-06 10:00:00',
      '2031-04-13 10:00:00',
    ]);
    // CET then CEST: the UTC time moves by the hour the clocks did.
    expect(utcs(lines, '2031-03-23 10:00:00')).toEqual([
      '2031-03-23 09:00',
      '2031-03-30 08:00',
      '2031-04-06 08:00',
      '2031-04-13 08:00',
    ]);
    expect(utcs(['RRULE:FREQ=WEEKLY;COUNT=2'], '2031-10-19 10:00:00')).toEqual([
      '2031-10-19 08:00',
      '2031-10-26 09:00',
    ]);
  });

  it('places occurrences in the skipped and the repeated hour as RFC 5545 says (three zones)', () => {
    // Daily at 02:30 over each zone's spring-forward night: that night's occurrence is at 03:30 local time.
    expect(utcs(['RRULE:FREQ=DAILY;COUNT=3'], '2031-03-29 02:30:00')).toEqual([
      '2031-03-29 01:30',
      '2031-03-30 01:30',
      '2031-03-31 00:30',
    ]);
    expect(utcs(['RRULE:FREQ=DAILY;COUNT=2'], '2031-03-08 02:30:00', 'America/New_York')).toEqual([
      '2031-03-08 07:30',
      '2031-03-09 07:30',
    ]);
    expect(utcs(['RRULE:FREQ=DAILY;COUNT=2'], '2031-10-04 02:30:00', 'Australia/Sydney')).toEqual([
      '2031-10-03 16:30',
      '2031-10-04 16:30',
    ]);
    // In the repeated hour: the first of the two.
    expect(utcs(['RRULE:FREQ=DAILY;COUNT=2'], '2031-11-01 01:30:00', 'America/New_York')).toEqual([
      '2031-11-01 05:30',
      '2031-11-02 05:30',
    ]);
    expect(utcs(['RRULE:FREQ=DAILY;COUNT=2'], '2031-04-05 02:30:00', 'Australia/Sydney')).toEqual([
      '2031-04-04 15:30',
      '2031-04-05 15:30',
    ]);
    // The occurrence keeps the wall time the rule named (its RECURRENCE-ID), moved or not.
    expect(locals(['RRULE:FREQ=DAILY;COUNT=2'], '2031-03-29 02:30:00')[1]).toBe('2031-03-30 02:30:00');
  });

  it('counts the first occurrence always, COUNT before EXDATE, and adds RDATEs in order', () => {
    expect(
      locals(
        ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4', 'EXDATE:20310121T100000', 'RDATE:20310122T180000'],
        '2031-01-07 10:00:00',
      ),
    ).toEqual(['2031-01-07 10:00:00', '2031-01-14 10:00:00', '2031-01-22 18:00:00', '2031-01-28 10:00:00']);
    // DTSTART off the rule is still the series' first event, and the first of its COUNT (RFC 5545 §3.3.10).
    expect(locals(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=2'], '2031-01-06 10:00:00')).toEqual([
      '2031-01-06 10:00:00',
      '2031-01-07 10:00:00',
    ]);
    // A whole-day EXDATE takes out that day's occurrence; an EXDATE in UTC the instant it names.
    expect(
      locals(
        ['RRULE:FREQ=DAILY;COUNT=4', 'EXDATE;VALUE=DATE:20310102', 'EXDATE:20310103T090000Z'],
        '2031-01-01 10:00:00',
      ),
    ).toEqual(['2031-01-01 10:00:00', '2031-01-04 10:00:00']);
  });

  it('reads UNTIL as the instant it names: UTC, a local time, or a whole day', () => {
    expect(locals(['RRULE:FREQ=DAILY;UNTIL=20310103T090000Z'], '2031-01-01 10:00:00')).toHaveLength(3);
    expect(locals(['RRULE:FREQ=DAILY;UNTIL=20310103T085959Z'], '2031-01-01 10:00:00')).toHaveLength(2);
    expect(locals(['RRULE:FREQ=DAILY;UNTIL=20310103'], '2031-01-01 10:00:00')).toHaveLength(3);
  });

  it('follows the calendar: last Friday of the month, no 31st in short months, no 30 February', () => {
    expect(locals(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'], '2031-01-31 19:00:00')).toEqual([
      '2031-01-31 19:00:00',
      '2031-02-28 19:00:00',
      '2031-03-28 19:00:00',
    ]);
    expect(locals(['RRULE:FREQ=MONTHLY;COUNT=3'], '2031-01-31 10:00:00')).toEqual([
      '2031-01-31 10:00:00',
      '2031-03-31 10:00:00',
      '2031-05-31 10:00:00',
    ]);
    // A rule that never matches is refused once it has looked through its budget (rrule alone runs to 9999).
    expect(() => locals(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'], '2031-01-01 10:00:00')).toThrow(
      /^RRULE:FREQ=YEARLY;COUNT=2;BYMONTH=2;BYMONTHDAY=30 matches too rarely: it would look through more than 50000 candidate instants/,
    );
  });

  it('expands an unbounded rule to the horizon, and refuses a series over the limit', () => {
    const daily = expand(['RRULE:FREQ=DAILY'], '2031-01-01 10:00:00');
    expect(daily.horizonUtc?.toISODate()).toBe(NOW.plus({ days: HORIZON_DAYS }).toISODate());
    expect(daily.occurrences.length).toBe(HORIZON_DAYS);
    expect(expand(['RRULE:FREQ=DAILY;COUNT=3'], '2031-01-01 10:00:00').horizonUtc).toBeNull();
    // Ten years of a daily rule fit the limit; twelve do not.
    expect(expand(['RRULE:FREQ=DAILY;UNTIL=20401231T235959Z'], '2031-01-01 10:00:00').occurrences).toHaveLength(3653);
    const tooMany = expandSeries(setOf(['RRULE:FREQ=DAILY;UNTIL=20421231T235959Z']), {
      start: wallTimeOf('2031-01-01 10:00:00')!,
      zone: IANAZone.create('Europe/Berlin'),
      nowUtc: NOW,
    });
    expect(tooMany).toEqual({ ok: false, problem: `would have more than ${MAX_OCCURRENCES} occurrences` });
    const manyDates = expandSeries(setOf(['RRULE:FREQ=DAILY;COUNT=3']), {
      start: wallTimeOf('2031-01-01 10:00:00')!,
      zone: IANAZone.create('Europe/Berlin'),
      nowUtc: NOW,
      limit: 2,
    });
    expect(manyDates.ok).toBe(false);
  });

  it("counts an open rule's limit from now: a weekly series that began 80 years ago keeps growing", () => {
    const longAgo = (limitFromNow: boolean) =>
      expandSeries(setOf(['RRULE:FREQ=WEEKLY']), {
        start: wallTimeOf('1951-01-01 10:00:00')!,
        zone: IANAZone.create('Europe/Berlin'),
        nowUtc: NOW,
        limitFromNow,
      });
    const extended = longAgo(true);
    expect(extended.ok && extended.occurrences.length).toBeGreaterThan(MAX_OCCURRENCES);
    // A write of the same series (all its occurrences made at once) stays within the limit.
    expect(longAgo(false)).toEqual({ ok: false, problem: `would have more than ${MAX_OCCURRENCES} occurrences` });
    // Over the limit within the horizon itself: still a 400 naming the limit.
    const hourly = expandSeries(setOf(['RRULE:FREQ=DAILY;BYHOUR=0,2,4,6,8,10,12,14,16,18,20,22']), {
      start: wallTimeOf('2031-01-01 00:00:00')!,
      zone: IANAZone.create('Europe/Berlin'),
      nowUtc: NOW,
      limitFromNow: true,
    });
    expect(hourly).toEqual({ ok: false, problem: `would have more than ${MAX_OCCURRENCES} occurrences` });
  });

  it('tells whether the rules give DTSTART, quickly even for a rule that never matches', () => {
    const start = wallTimeOf('2031-01-01 18:00:00')!;
    expect(rulesGiveStart(setOf(['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=3']), start)).toBe(true);
    expect(rulesGiveStart(setOf(['RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=3']), start)).toBe(false);
    // 30 February: without its UNTIL, rrule alone would look until the year 9999.
    expect(rulesGiveStart(setOf(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;UNTIL=20310301T000000Z']), start)).toBe(
      false,
    );
  });
});
