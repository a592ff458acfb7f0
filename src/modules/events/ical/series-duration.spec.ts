import { describe, expect, it } from '@jest/globals';
import { nominalDuration, readersEndUtc } from './series-duration';

describe('a series length as readers add it', () => {
  it('writes whole days as nominal days and the rest exactly', () => {
    expect(nominalDuration(48 * 3600)).toBe('P2D');
    expect(nominalDuration(5400)).toBe('PT1H30M');
    expect(nominalDuration(86_400 + 7201)).toBe('P1DT2H1S');
    expect(nominalDuration(0)).toBe('PT0S');
  });

  it('ends a Friday–Sunday occurrence across the spring change on the clock face (47 hours later)', () => {
    // Berlin, 2027-03-26 18:00 CET is 17:00Z; Sunday 18:00 CEST is 16:00Z.
    expect(readersEndUtc('2027-03-26 18:00:00', 48 * 3600, 'Europe/Berlin')).toBe('2027-03-28 16:00:00');
    // An hour and a half is exact: from 01:30 CET across the skipped hour, 04:00 CEST.
    expect(readersEndUtc('2027-03-28 01:30:00', 5400, 'Europe/Berlin')).toBe('2027-03-28 02:00:00');
  });
});
