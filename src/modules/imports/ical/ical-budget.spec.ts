import { describe, expect, it } from '@jest/globals';
import { icalBudgetProblem, type IcalLimits } from './ical-budget';

const LIMITS: IcalLimits = { vevents: 2, vtimezones: 1, observances: 2, properties: 5 };
const calendar = (...body: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...body, 'END:VCALENDAR'].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', 'UID:a', ...lines, 'END:VEVENT'];
const zone = (...observances: string[][]) => ['BEGIN:VTIMEZONE', 'TZID:X', ...observances.flat(), 'END:VTIMEZONE'];
const standard = (rule = 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU') => [
  'BEGIN:STANDARD',
  'DTSTART:19701025T030000',
  rule,
  'END:STANDARD',
];

describe('icalBudgetProblem', () => {
  it('lets a feed within every limit through', () => {
    expect(
      icalBudgetProblem(calendar(...zone(standard(), standard()), ...event(), ...event()), LIMITS),
    ).toBeUndefined();
  });

  it('names the limit and its setting for each count past it', () => {
    expect(icalBudgetProblem(calendar(...event(), ...event(), ...event()), LIMITS)).toBe(
      'more than 2 VEVENTs (IMPORTS_MAX_VEVENTS)',
    );
    expect(icalBudgetProblem(calendar(...zone(), ...zone()), LIMITS)).toBe(
      'more than 1 VTIMEZONEs (IMPORTS_MAX_VTIMEZONES)',
    );
    expect(icalBudgetProblem(calendar(...zone(standard(), standard(), standard())), LIMITS)).toBe(
      'line 13: a VTIMEZONE with more than 2 observances (IMPORTS_MAX_OBSERVANCES)',
    );
    expect(icalBudgetProblem(calendar(...event('A:1', 'B:2', 'C:3', 'D:4', 'E:5')), LIMITS)).toBe(
      'line 9: a VEVENT with more than 5 properties (IMPORTS_MAX_PROPERTIES)',
    );
  });

  it('counts each value of an RDATE or EXDATE list, and no folded line', () => {
    expect(
      icalBudgetProblem(calendar(...event('EXDATE:20310101,20310102,20310103,20310104,20310105')), LIMITS),
    ).toMatch(/more than 5 properties/);
    expect(
      icalBudgetProblem(calendar(...event('DESCRIPTION:a', ' b', ' c', ' d', ' e', '\tf')), LIMITS),
    ).toBeUndefined();
  });

  it('refuses components nested past a calendar’s depth and observance rules ical.js would step forever', () => {
    const deep = ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'BEGIN:VALARM', 'BEGIN:X', 'BEGIN:Y'].join('\r\n');
    expect(icalBudgetProblem(deep, LIMITS)).toBe('line 5: components nested more than 4 deep');
    expect(icalBudgetProblem(calendar(...zone(standard('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'))), LIMITS)).toBe(
      "line 7: a VTIMEZONE's RRULE: a time zone changes its offset yearly (FREQ=YEARLY)",
    );
    expect(icalBudgetProblem(calendar(...zone(standard('RRULE:FREQ=YEARLY;BYMONTH=13'))), LIMITS)).toBe(
      "line 7: a VTIMEZONE's RRULE: BYMONTH=13: 13 is outside 1..12",
    );
  });
});
