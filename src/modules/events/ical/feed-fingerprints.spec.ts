import { describe, expect, it } from '@jest/globals';
import { feedFingerprint, type FeedEntryState } from './feed-fingerprints';

const entry: FeedEntryState = {
  id: 7,
  timezone: 'Europe/Berlin',
  allDay: false,
  startUtc: '2031-03-29 21:00:00',
  endUtc: '2031-03-30 02:00:00',
  modifiedUtc: '2030-01-01 10:00:00',
  changedUtc: '2030-01-01 10:00:00',
  changedSeq: 41,
  seriesId: null,
};

describe('feedFingerprint', () => {
  it('changes with a change in the same second (its venue renamed a moment after the event was written)', () => {
    expect(feedFingerprint('k', [entry])).not.toBe(feedFingerprint('k', [{ ...entry, changedSeq: 42 }]));
  });

  it('stays for the same content and moves with the feed key', () => {
    expect(feedFingerprint('k', [entry])).toBe(feedFingerprint('k', [{ ...entry }]));
    expect(feedFingerprint('k', [entry])).not.toBe(feedFingerprint('other', [entry]));
  });
});
