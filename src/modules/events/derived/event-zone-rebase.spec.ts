import { describe, expect, it } from '@jest/globals';
import { rebasedTimes } from './event-zone-rebase';

const row = (timezone: string, startLocal: string, startUtc: string, endLocal: string, endUtc: string) => ({
  post_id: 1,
  start_local: startLocal,
  end_local: endLocal,
  start_utc: startUtc,
  end_utc: endUtc,
  timezone,
  status: 'publish' as const,
  date_utc: '2030-01-01 00:00:00',
  author_id: null,
});

describe('UTC times placed again by the rules in force', () => {
  it('gives new UTC times when the stored ones are not what the rules make of the wall times', () => {
    // São Paulo has had no summer time since 2019: 19:00 in June is 22:00 UTC, not 21:00.
    expect(
      rebasedTimes(
        row(
          'America/Sao_Paulo',
          '2031-06-01 19:00:00',
          '2031-06-01 21:00:00',
          '2031-06-01 22:00:00',
          '2031-06-02 00:00:00',
        ),
      ),
    ).toEqual({ startUtc: '2031-06-01 22:00:00', endUtc: '2031-06-02 01:00:00' });
    // A repeated hour is its first occurrence, as when the event was written.
    expect(
      rebasedTimes(
        row(
          'Europe/Berlin',
          '2031-10-26 02:30:00',
          '2031-10-26 01:30:00',
          '2031-10-26 04:00:00',
          '2031-10-26 03:00:00',
        ),
      ),
    ).toEqual({ startUtc: '2031-10-26 00:30:00', endUtc: '2031-10-26 03:00:00' });
  });

  it('leaves times that agree, fixed offsets that have no rules, and what it cannot read', () => {
    expect(
      rebasedTimes(
        row(
          'Europe/Berlin',
          '2031-07-01 10:00:00',
          '2031-07-01 08:00:00',
          '2031-07-01 12:00:00',
          '2031-07-01 10:00:00',
        ),
      ),
    ).toBeUndefined();
    expect(
      rebasedTimes(
        row('UTC+2', '2031-07-01 10:00:00', '2031-07-01 08:00:00', '2031-07-01 12:00:00', '2031-07-01 10:00:00'),
      ),
    ).toBeUndefined();
    expect(rebasedTimes(row('Mars/Olympus', '2031-07-01 10:00:00', 'x', '2031-07-01 12:00:00', 'y'))).toBeUndefined();
    expect(rebasedTimes(row('Europe/Berlin', 'garbage', 'x', '2031-07-01 12:00:00', 'y'))).toBeUndefined();
  });
});
