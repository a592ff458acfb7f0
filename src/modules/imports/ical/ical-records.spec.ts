import { describe, expect, it, jest } from '@jest/globals';
import ICAL from 'ical.js';
import { readIcal } from './ical-records';

const wrap = (...events: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//t//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

describe('reading an iCalendar feed for import', () => {
  it('reads each VEVENT without looking through all the others (a large feed in linear time)', () => {
    // TZIDs the feed has no VTIMEZONE for (as Google's and many exports write them), a series with an exception.
    const events = Array.from({ length: 400 }, (_, i) =>
      vevent(
        `UID:e${i}`,
        `DTSTART;TZID=Europe/Berlin:2027${String(1 + (i % 12)).padStart(2, '0')}10T190000`,
        'SUMMARY:x',
      ),
    );
    events.push(vevent('UID:e0', 'RECURRENCE-ID;TZID=Europe/Berlin:20270110T190000', 'DTSTART:20270110T200000Z'));
    const scans = jest.spyOn(ICAL.Component.prototype, 'getAllSubcomponents');
    try {
      const parsed = readIcal(wrap(...events));
      if (!parsed.ok) throw new Error(parsed.problem);
      expect(parsed.records).toHaveLength(400);
      expect(parsed.records[0].exceptions).toHaveLength(1);
      // Scans of the whole feed: its VEVENTs and VTIMEZONEs once each; every other one is of a calendar that
      // holds only the VTIMEZONEs (ical.js scanned the whole feed for each VEVENT and each TZID it read).
      const ofTheFeed = scans.mock.contexts.filter((c) => (c as ICAL.Component).jCal[2].length > 100);
      expect(ofTheFeed.length).toBeLessThanOrEqual(2);
    } finally {
      scans.mockRestore();
    }
  });

  it('refuses what is not iCalendar as a whole', () => {
    expect(readIcal('<!doctype html><p>502 Bad Gateway</p>')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^not iCalendar/),
    });
    expect(readIcal('BEGIN:VCARD\r\nVERSION:4.0\r\nEND:VCARD')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^not iCalendar/),
    });
  });

  it('reports a VEVENT without DTSTART and an exception without its series, and reads the rest', () => {
    const parsed = readIcal(
      wrap(
        vevent('UID:a', 'SUMMARY:No start'),
        vevent('UID:b', 'DTSTART:20270101T100000Z', 'DURATION:PT90M', 'SUMMARY:Talk'),
        vevent('UID:c', 'RECURRENCE-ID:20270102T100000Z', 'DTSTART:20270102T110000Z', 'SUMMARY:Orphan'),
      ),
    );
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.problems).toEqual(['VEVENT 1 (a): no DTSTART', 'RECURRENCE-ID of c: no such series in the feed']);
    expect(parsed.records.map((r) => r.fields)).toEqual([
      { title: 'Talk', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:30:00', timezone: 'UTC' },
    ]);
  });

  it('keeps a UID longer than the column as its hash, and names a VEVENT without UID by its start and title', () => {
    const long = 'x'.repeat(300);
    const parsed = readIcal(
      wrap(
        vevent(`UID:${long}`, 'DTSTART:20270101T100000Z', 'SUMMARY:A'),
        vevent('DTSTART:20270101T100000Z', 'SUMMARY:B'),
      ),
    );
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.records[0].sourceId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parsed.records[1].sourceId).toBe('no-uid:2027-01-01T10:00:00Z:B');
  });

  it('a change anywhere in a series, exceptions included, changes its hash; the same text gives the same hash', () => {
    const series = (title: string) =>
      wrap(
        vevent('UID:s', 'DTSTART:20270101T100000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'SUMMARY:S'),
        vevent('UID:s', 'RECURRENCE-ID:20270102T100000Z', 'DTSTART:20270102T120000Z', `SUMMARY:${title}`),
      );
    const hashOf = (text: string) => {
      const parsed = readIcal(text);
      if (!parsed.ok) throw new Error(parsed.problem);
      return parsed.records[0].hash;
    };
    expect(hashOf(series('Moved'))).toBe(hashOf(series('Moved')));
    expect(hashOf(series('Moved again'))).not.toBe(hashOf(series('Moved')));
  });
});
