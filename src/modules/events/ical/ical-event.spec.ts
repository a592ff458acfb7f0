import { beforeAll, describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import { ORGANIZER_EVENT_LINK } from '../../organizers/organizer.event-link';
import { VENUE_EVENT_LINK } from '../../venues/venue.event-link';
import { declareEventLinkFields } from '../extension-points/links/event-link-fields';
import { toICalEventData } from './ical-event';
import { plainTextOf } from './ical-text';

/** The members a VEVENT is written from; the others play no part in it. */
const base = {
  id: 7,
  global_id: 'cal.example.org?id=7',
  title: 'Talk',
  description: '',
  status: 'publish',
  url: 'https://cal.example.org/event/talk/',
  all_day: false,
  start_date: '2031-03-29 22:00:00',
  end_date: '2031-03-30 04:00:00',
  utc_start_date: '2031-03-29 21:00:00',
  utc_end_date: '2031-03-30 02:00:00',
  timezone: 'Europe/Berlin',
  date_utc: '2031-01-01 10:00:00',
  modified_utc: '2031-01-02 10:00:00',
  categories: [],
  venue: [],
  organizer: [],
};
const known = (zone: string) => zone === 'Europe/Berlin';

describe('toICalEventData', () => {
  // The links write their own properties, as they declare them where they are defined.
  beforeAll(() => [VENUE_EVENT_LINK, ORGANIZER_EVENT_LINK].forEach(declareEventLinkFields));

  it('writes timed events in their zone, at the instants the event object gives', () => {
    const data = toICalEventData(base, known);
    expect(data.timezone).toBe('Europe/Berlin');
    expect((data.start as DateTime).toUTC().toISO()).toBe('2031-03-29T21:00:00.000Z');
    expect((data.end as DateTime).toFormat('HH:mm')).toBe('04:00');
  });

  it('writes zones without a VTIMEZONE (fixed offsets) in UTC', () => {
    const data = toICalEventData({ ...base, timezone: 'UTC+2' }, known);
    expect(data.timezone).toBeUndefined();
    expect((data.start as Date).toISOString()).toBe('2031-03-29T21:00:00.000Z');
  });

  it('writes all-day events as dates, the end the day after the last', () => {
    const data = toICalEventData(
      { ...base, all_day: true, start_date: '2031-03-10 00:00:00', end_date: '2031-03-12 23:59:59' },
      known,
    );
    expect(data.allDay).toBe(true);
    expect((data.start as DateTime).toISODate()).toBe('2031-03-10');
    expect((data.end as DateTime).toISODate()).toBe('2031-03-13');
  });

  it('takes the first organizer with an e-mail, without double quotes in its name', () => {
    const data = toICalEventData(
      {
        ...base,
        organizer: [{ organizer: 'No mail' }, { organizer: 'The "Band"', email: 'band@example.org' }],
      },
      known,
    );
    expect(data.organizer).toEqual({ name: "The 'Band'", email: 'band@example.org' });
    expect(toICalEventData({ ...base, organizer: [{ organizer: 'No mail' }] }, known).organizer).toBeUndefined();
  });

  it("writes a module's link as its definition says, beside the other properties", () => {
    declareEventLinkFields({
      field: 'speaker_ical_test',
      cardinality: 'many',
      jsonLdProperty: 'performer',
      table: 'event_speakers',
      column: 'speaker_id',
      writeDescription: { en: 'Speakers.', de: 'Vortragende.' },
      filterDescription: { en: 'By speaker.', de: 'Nach Vortragenden.' },
      ical: {
        property: 'X-CAL-SPEAKERS',
        write: (speakers) => ({
          x: [{ key: 'X-CAL-SPEAKERS', value: speakers.map((s) => String(s.speaker)).join(', ') }],
        }),
      },
    });
    const data = toICalEventData({ ...base, speaker_ical_test: [{ speaker: 'Ada' }, { speaker: 'Grace' }] }, known);
    expect(data.x).toEqual([{ key: 'X-CAL-SPEAKERS', value: 'Ada, Grace' }]);
    expect(toICalEventData({ ...base, speaker_ical_test: [] }, known).x).toEqual([]);
  });

  it('marks drafts tentative and private events private, and raises SEQUENCE with the modification time', () => {
    expect(toICalEventData({ ...base, status: 'draft' }, known).status).toBe('TENTATIVE');
    expect(toICalEventData({ ...base, status: 'private' }, known).class).toBe('PRIVATE');
    const later = toICalEventData({ ...base, modified_utc: '2031-01-02 10:00:01' }, known);
    expect(later.sequence).toBe((toICalEventData(base, known).sequence as number) + 1);
  });

  it('reads a venue as LOCATION and its coordinates as GEO, and a blanked venue as none', () => {
    const venue = { venue: 'Hall', address: 'Kai 1', city: 'Hamburg', country: 'Germany', geo_lat: 53.5, geo_lng: 9.9 };
    expect(toICalEventData({ ...base, venue }, known).location).toEqual({
      // One line (ical-generator writes `address` on a second one).
      title: 'Hall, Kai 1, Hamburg, Germany',
      geo: { lat: 53.5, lon: 9.9 },
    });
    expect(toICalEventData({ ...base, venue: [] }, known).location).toBeUndefined();
  });
});

describe('plainTextOf', () => {
  it('keeps paragraphs and list items as lines and drops images and markup', () => {
    expect(plainTextOf('<p>One <b>two</b></p><img src="x.png"><ul><li>a</li><li>b</li></ul>')).toBe(
      'One two\n\n * a\n * b',
    );
    expect(plainTextOf('   ')).toBe('');
  });
});
