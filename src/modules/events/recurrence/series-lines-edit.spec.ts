import { describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import { linesBefore, linesFrom, linesMovedBy, withExdate, withoutExdate } from './series-lines-edit';

describe('series lines cut in two (scope=following)', () => {
  const cut = { occurrenceLocal: '2027-04-06 19:00:00', zone: 'Europe/Berlin', allDay: false };

  it('ends every rule a second before the cut, in UTC, whatever ended it before', () => {
    expect(
      linesBefore(['RRULE:FREQ=WEEKLY;COUNT=30;BYDAY=TU', 'RRULE:FREQ=MONTHLY;UNTIL=20281231T000000Z'], cut),
    ).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T165959Z', 'RRULE:FREQ=MONTHLY;UNTIL=20270406T165959Z']);
  });

  it('ends an all-day series the day before the cut, as a date', () => {
    expect(linesBefore(['RRULE:FREQ=DAILY'], { ...cut, allDay: true, occurrenceLocal: '2027-01-01 00:00:00' })).toEqual(
      ['RRULE:FREQ=DAILY;UNTIL=20261231'],
    );
  });

  it('splits RDATE values at the cut and keeps EXDATE lines on both sides', () => {
    const lines = ['RRULE:FREQ=WEEKLY', 'RDATE:20270301T190000,20270501T190000', 'EXDATE:20270316T190000'];
    expect(linesBefore(lines, cut)).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20270406T165959Z',
      'RDATE:20270301T190000',
      'EXDATE:20270316T190000',
    ]);
    expect(linesFrom(lines, cut, DateTime.fromISO('2027-12-28T18:00:00Z'))).toEqual([
      'RRULE:FREQ=WEEKLY',
      'RDATE:20270501T190000',
      'EXDATE:20270316T190000',
    ]);
  });

  it('turns a COUNT of the rest into an UNTIL at the old last occurrence; an RDATE line left empty goes', () => {
    const last = DateTime.fromISO('2027-06-29T17:00:00Z');
    expect(linesFrom(['RRULE:FREQ=WEEKLY;COUNT=30', 'RDATE:20270101T190000'], cut, last)).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20270629T170000Z',
    ]);
  });

  it('compares a TZID date by its instant and a whole day by its date', () => {
    const lines = ['RDATE;TZID=America/New_York:20270406T130000', 'RDATE;VALUE=DATE:20270405,20270406'];
    // 13:00 in New York is 19:00 in Berlin: at the cut, so it goes with the rest.
    expect(linesBefore(lines, cut)).toEqual(['RDATE;VALUE=DATE:20270405']);
    expect(linesFrom(lines, cut, DateTime.fromISO('2027-06-29T17:00:00Z'))).toEqual([
      'RDATE;TZID=America/New_York:20270406T130000',
      'RDATE;VALUE=DATE:20270406',
    ]);
  });
});

describe('an occurrence deleted on its own', () => {
  it('becomes a floating EXDATE (a local time in the series zone), or a date for all-day series, once', () => {
    expect(withExdate(['RRULE:FREQ=DAILY'], '2027-01-05 19:00:00', false)).toEqual([
      'RRULE:FREQ=DAILY',
      'EXDATE:20270105T190000',
    ]);
    expect(withExdate(['RRULE:FREQ=DAILY', 'EXDATE;VALUE=DATE:20270105'], '2027-01-05 00:00:00', true)).toEqual([
      'RRULE:FREQ=DAILY',
      'EXDATE;VALUE=DATE:20270105',
    ]);
  });
});

describe('the lines of a series moved on the clock face (scope=all with new times)', () => {
  it('moves every RDATE and EXDATE value in the form it was written in; rules stay', () => {
    const lines = [
      'RRULE:FREQ=WEEKLY;BYDAY=TU',
      'EXDATE:20261222T190000,20261229T190000',
      'RDATE;TZID=Europe/Berlin:20270107T190000',
      // 19:00 in Berlin in summer, written in UTC: moved to 18:30 Berlin, 16:30 UTC.
      'EXDATE:20270706T170000Z',
      'EXDATE;VALUE=DATE:20270105',
    ];
    expect(linesMovedBy(lines, -1800, 'Europe/Berlin')).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU',
      'EXDATE:20261222T183000,20261229T183000',
      'RDATE;TZID=Europe/Berlin:20270107T183000',
      'EXDATE:20270706T163000Z',
      'EXDATE;VALUE=DATE:20270105',
    ]);
    expect(linesMovedBy(['EXDATE;VALUE=DATE:20270105'], 86_400, 'Europe/Berlin')).toEqual([
      'EXDATE;VALUE=DATE:20270106',
    ]);
    expect(linesMovedBy(lines, 0, 'Europe/Berlin')).toEqual(lines);
  });

  it("moves a rule's UNTIL with the occurrences, in the form it was written in", () => {
    // 19:00 Berlin on 2027-01-12 is 18:00Z; an hour later on the clock face, 19:00Z (and 18:00Z in summer).
    expect(
      linesMovedBy(
        ['RRULE:FREQ=WEEKLY;UNTIL=20270112T180000Z', 'RRULE:FREQ=DAILY;UNTIL=20270706T190000;BYHOUR=19'],
        3600,
        'Europe/Berlin',
      ),
    ).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270112T190000Z', 'RRULE:FREQ=DAILY;UNTIL=20270706T200000;BYHOUR=19']);
    expect(linesMovedBy(['RRULE:FREQ=DAILY;UNTIL=20270105'], 86_400, 'Europe/Berlin')).toEqual([
      'RRULE:FREQ=DAILY;UNTIL=20270106',
    ]);
  });

  it('takes out the EXDATE values that name one occurrence, in any form, and only those', () => {
    const lines = [
      'RRULE:FREQ=DAILY',
      'EXDATE:20270105T190000,20270106T190000',
      'EXDATE:20270105T180000Z',
      'EXDATE;VALUE=DATE:20270105',
    ];
    expect(withoutExdate(lines, '2027-01-05 19:00:00', 'Europe/Berlin')).toEqual([
      'RRULE:FREQ=DAILY',
      'EXDATE:20270106T190000',
    ]);
  });
});
