import { describe, expect, it } from '@jest/globals';
import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { wallTimeOf } from '../../../common/dates/wall-time';
import { vtimezoneOf } from '../ical/vtimezones';
import { parseRecurrence } from './recurrence-lines';
import { expandSeries } from './series-expansion';

const NOW = DateTime.fromISO('2031-01-01T00:00:00Z', { zone: 'utc' });

/** The instants a reader that trusts the feed's VTIMEZONE (ical.js) expands from one VEVENT. */
function icalInstants(zone: string, start: string, lines: string[], zones: string[] = [zone]): string[] {
  const vtimezones = zones.map((z) => vtimezoneOf(z, { fromYear: 2030, toYear: 2033 })!).join('');
  const dtstart = start.replace(/[-:]/g, '').replace(' ', 'T');
  const ics = [
    'BEGIN:VCALENDAR',
    `${vtimezones}BEGIN:VEVENT`,
    'UID:series@example.org',
    `DTSTART;TZID=${zone}:${dtstart}`,
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone));
  }
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  const iterator = event.iterator();
  const instants: string[] = [];
  for (let next = iterator.next(); next && instants.length < 500; next = iterator.next()) {
    instants.push(next.toJSDate().toISOString().slice(0, 16));
  }
  return instants;
}

function ours(zone: string, start: string, lines: string[]): string[] {
  const parsed = parseRecurrence(lines, zone);
  if (!parsed.ok) throw new Error(parsed.problem);
  const expanded = expandSeries(parsed.set, { start: wallTimeOf(start)!, zone: IANAZone.create(zone), nowUtc: NOW });
  if (!expanded.ok) throw new Error(expanded.problem);
  return expanded.occurrences.map((o) => o.startUtc.toISO()!.slice(0, 16));
}

/**
 * The series a feed will export is read back by calendar clients: ical.js (Thunderbird's parser), given only
 * the feed's VTIMEZONE, must expand the same instants as the service's own expansion.
 */
describe('series expansion as an iCalendar reader expands it', () => {
  it.each([
    ['Europe/Berlin', '2031-03-18 10:00:00', ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6']],
    ['Europe/Berlin', '2031-10-14 19:00:00', ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20311120T000000Z']],
    ['America/New_York', '2031-01-31 19:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12']],
    [
      'America/New_York',
      '2031-03-01 09:30:00',
      ['RRULE:FREQ=DAILY;COUNT=20', 'EXDATE;TZID=America/New_York:20310305T093000'],
    ],
    ['Australia/Sydney', '2031-09-28 18:00:00', ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8']],
    [
      'Australia/Sydney',
      '2031-01-15 08:00:00',
      ['RRULE:FREQ=YEARLY;COUNT=3', 'RDATE;TZID=Australia/Sydney:20310601T080000'],
    ],
    ['Europe/Berlin', '2031-01-06 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1;COUNT=10']],
    // DTSTART off the rule's pattern counts as the first of COUNT (RFC 5545 §3.3.10): 8 in all, not 9.
    ['Europe/Berlin', '2031-01-07 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=TU,TH;BYSETPOS=2;COUNT=8']],
  ])('%s from %s: %j', (zone, start, lines) => {
    const expected = icalInstants(zone, start, lines);
    expect(expected.length).toBeGreaterThan(2);
    expect(ours(zone, start, lines)).toEqual(expected);
  });

  it('reads an RDATE in another zone as the instant it names', () => {
    const lines = ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE;TZID=America/New_York:20310110T120000'];
    expect(ours('Europe/Berlin', '2031-01-07 10:00:00', lines)).toEqual(
      icalInstants('Europe/Berlin', '2031-01-07 10:00:00', lines, ['Europe/Berlin', 'America/New_York']),
    );
  });
});
