import { describe, expect, it } from '@jest/globals';
import { RRule } from 'rrule';
import { boundedBetween, candidatesPerPeriod } from './bounded-rule';

const START = new Date(Date.UTC(2031, 0, 1, 10));
const END = new Date(Date.UTC(2131, 0, 1));
const rule = (text: string) => new RRule({ ...RRule.parseString(text), dtstart: START });
const between = (text: string, candidates: number, occurrences = 4000) =>
  boundedBetween(rule(text), START, END, { candidates, occurrences });

describe('boundedBetween', () => {
  it('counts the periods rrule looks through, to the period: ten days of a daily rule need ten candidates', () => {
    const found = between('FREQ=DAILY;COUNT=10', 10);
    expect(found.ok && found.dates.map((d) => d.toISOString().slice(0, 10))).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `2031-01-${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(between('FREQ=DAILY;COUNT=10', 9)).toEqual({ ok: false, reason: 'candidates' });
  });

  it('ends a rule that never matches instead of letting rrule run to year 9999', () => {
    expect(between('FREQ=DAILY;BYSETPOS=5;COUNT=3', 50_000)).toEqual({ ok: false, reason: 'candidates' });
    expect(between('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 50_000)).toEqual({ ok: false, reason: 'candidates' });
  });

  it('prices a period by its days, and by its times too when BYSETPOS picks among them', () => {
    expect(candidatesPerPeriod(rule('FREQ=WEEKLY;BYHOUR=1,2,3'))).toBe(7);
    expect(candidatesPerPeriod(rule('FREQ=MONTHLY;BYSETPOS=-1;BYHOUR=1,2,3;BYMINUTE=0,30'))).toBe(31 * 6);
    expect(candidatesPerPeriod(rule('FREQ=YEARLY'))).toBe(366);
    // Four yearly periods of 366 candidates: a leap day from 2031 is first found in 2032, the second in 2036.
    expect(between('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=2', 366 * 6).ok).toBe(true);
    expect(between('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=2', 366 * 5)).toEqual({
      ok: false,
      reason: 'candidates',
    });
  });

  it('refuses more occurrences than allowed, and leaves the rule as it was', () => {
    const r = rule('FREQ=DAILY;COUNT=20');
    expect(boundedBetween(r, START, END, { candidates: 1000, occurrences: 5 })).toEqual({
      ok: false,
      reason: 'occurrences',
    });
    expect(r.options.interval).toBe(1);
    expect(r.all()).toHaveLength(20);
  });
});
