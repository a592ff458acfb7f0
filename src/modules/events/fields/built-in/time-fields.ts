import { bool, DATE, DATE_DETAILS, str } from '../../../../common/http/post-schemas';
import { sqlUtcToDateTime } from '../../../../common/dates/zoned-time';
import { BooleanField, DateTimeField, TimeZoneField } from '../../../../common/validation/fields';
import { timesOf } from '../../ical/vevent-times';
import { group } from './built-in-field';
import { readBack, times } from './parts';

const isoIn = (utc: string, zone: string): string =>
  sqlUtcToDateTime(utc).setZone(zone).toISO({ suppressMilliseconds: true }) ?? utc;

/**
 * When the event is. DTSTART and DTEND: all-day events as dates, timed ones in their zone (or UTC), from these
 * members together.
 */
export const TIME_FIELDS = group({
  all_day: {
    member: { schema: bool },
    vevent: { property: 'DTSTART', with: 'start_date' },
    write: {
      ...times,
      rule: BooleanField({
        description: { en: 'Whether the event lasts all day.', de: 'Ob die Veranstaltung ganztägig ist.' },
        default: false,
      }),
    },
  },
  start_date: {
    member: { schema: DATE },
    vevent: { property: 'DTSTART', write: (_start, event, { hasZone }) => timesOf(event, hasZone) },
    write: {
      ...times,
      rule: DateTimeField({
        description: {
          en: 'The start date and time, in the event time zone.',
          de: 'Beginn (Datum und Uhrzeit), in der Zeitzone der Veranstaltung.',
        },
        required: true,
      }),
    },
  },
  start_date_details: { member: { schema: DATE_DETAILS }, vevent: readBack },
  end_date: {
    member: { schema: DATE },
    vevent: { property: 'DTEND', with: 'start_date' },
    write: {
      ...times,
      rule: DateTimeField({
        description: {
          en: 'The end date and time, in the event time zone.',
          de: 'Ende (Datum und Uhrzeit), in der Zeitzone der Veranstaltung.',
        },
        required: true,
      }),
    },
  },
  end_date_details: { member: { schema: DATE_DETAILS }, vevent: readBack },
  utc_start_date: {
    member: { schema: DATE, jsonLd: { property: 'startDate', value: (utc, event) => isoIn(utc, event.timezone) } },
    vevent: { property: 'DTSTART', with: 'start_date' },
  },
  utc_start_date_details: { member: { schema: DATE_DETAILS }, vevent: readBack },
  utc_end_date: {
    member: { schema: DATE, jsonLd: { property: 'endDate', value: (utc, event) => isoIn(utc, event.timezone) } },
    vevent: { property: 'DTEND', with: 'start_date' },
  },
  utc_end_date_details: { member: { schema: DATE_DETAILS }, vevent: readBack },
  // A timed event's zone is DTSTART's TZID; an all-day one's (whole days have none) an X- property.
  timezone: {
    member: { schema: str },
    vevent: {
      property: 'X-CAL-TIMEZONE',
      write: (zone, event) => (event.all_day === true ? { x: [{ key: 'X-CAL-TIMEZONE', value: String(zone) }] } : {}),
    },
    write: {
      ...times,
      rule: TimeZoneField({
        description: {
          en: 'The event time zone: an IANA name or UTC±N; the site time zone when not given.',
          de: 'Die Zeitzone der Veranstaltung: ein IANA-Name oder UTC±N; sonst die Zeitzone der Website.',
        },
      }),
    },
  },
  timezone_abbr: { member: { schema: str }, vevent: readBack },
});
