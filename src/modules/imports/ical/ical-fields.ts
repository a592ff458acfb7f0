import ICAL from 'ical.js';
import { resolveZone } from '../../../common/dates/date-input';
import type { CreateEventDto } from '../../events';
import { dayOf, htmlOf, placed } from './ical-values';

/** What reading a VEVENT knows besides the VEVENT: categories the import adds to every event. */
export interface IcalReadContext {
  extraCategories: readonly string[];
}

/**
 * Where a write field comes from in a VEVENT: read from its property (`read` gives the fields it fills, as
 * the events API takes them), filled by another field's reader (`with`), read elsewhere in the feed's reading
 * (`elsewhere`), or not at all, and why.
 */
export type IcalFieldSource =
  | {
      readonly property: string;
      readonly read: (event: ICAL.Event, context: IcalReadContext) => Record<string, unknown>;
    }
  | { readonly property: string; readonly with: keyof CreateEventDto }
  | { readonly property: string; readonly elsewhere: string }
  | { readonly none: string };

const none = (why: string) => ({ none: why });

/**
 * The zone of an all-day event, which its dates do not carry: this service's `X-CAL-TIMEZONE`, else the feed's
 * `X-WR-TIMEZONE` (Google's, Apple's), else the feed's only VTIMEZONE; none leaves the site's.
 */
function wholeDaysZone(component: ICAL.Component): string | undefined {
  const calendar = component.parent;
  const vtimezones = calendar?.getAllSubcomponents('vtimezone') ?? [];
  const candidates = [
    component.getFirstPropertyValue('x-cal-timezone'),
    calendar?.getFirstPropertyValue('x-wr-timezone'),
    vtimezones.length === 1 ? vtimezones[0].getFirstPropertyValue('tzid') : undefined,
  ];
  // A name the zone database does not know is passed over, as a feed's any other unknown value.
  return candidates.find((c): c is string => typeof c === 'string' && resolveZone(c.trim()) !== null)?.trim();
}

/** DTSTART and DTEND as the events API takes them: whole days, or wall times in the zone TZID names. */
function timesOf(event: ICAL.Event): Record<string, unknown> {
  const start = event.startDate;
  if (start.isDate) {
    // DTEND of a whole-day event is the day after its last day (RFC 5545 §3.6.1).
    const end = event.endDate && event.endDate.compare(start) > 0 ? event.endDate.clone() : start.clone();
    if (event.endDate && event.endDate.compare(start) > 0) end.adjust(-1, 0, 0, 0);
    const zone = wholeDaysZone(event.component);
    return { all_day: true, start_date: dayOf(start), end_date: dayOf(end), ...(zone ? { timezone: zone } : {}) };
  }
  const tzid = event.component.getFirstProperty('dtstart')?.getParameter('tzid');
  const at = placed(start, typeof tzid === 'string' ? tzid : null);
  const endTime = event.endDate ?? start;
  // The end in the start's zone: an end written in another zone is the same instant.
  const end =
    at.zone === undefined || endTime.zone === ICAL.Timezone.utcTimezone || at.zone === 'UTC'
      ? placed(endTime, at.zone === 'UTC' ? null : (at.zone ?? null))
      : placed(endTime, at.zone);
  return { start_date: at.wall, end_date: end.wall, ...(at.zone ? { timezone: at.zone } : {}) };
}

/**
 * Every write field of `POST /events`, and where a VEVENT holds it: a mapped type over the DTO, so a field
 * added to it fails `tsc` here until `import:ical` says how it reads it. (Links, `venue` from LOCATION and
 * `organizer` from ORGANIZER, and modules' `X-` properties are read beside these.)
 */
export const ICAL_EVENT_FIELDS: { readonly [K in keyof Required<CreateEventDto>]: IcalFieldSource } = {
  title: { property: 'SUMMARY', read: (event) => ({ title: (event.summary ?? '').trim() || '(untitled)' }) },
  start_date: { property: 'DTSTART', read: timesOf },
  end_date: { property: 'DTEND', with: 'start_date' },
  all_day: { property: 'DTSTART', with: 'start_date' },
  timezone: { property: 'TZID (timed), X-CAL-TIMEZONE or X-WR-TIMEZONE (all-day)', with: 'start_date' },
  description: {
    property: 'DESCRIPTION',
    read: (event) => {
      const text = event.component.getFirstPropertyValue('description');
      return typeof text === 'string' && text.trim() !== '' ? { description: htmlOf(text.trim()) } : {};
    },
  },
  categories: {
    property: 'CATEGORIES',
    read: (event, { extraCategories }) => {
      const named = event.component
        .getAllProperties('categories')
        .flatMap((p) => p.getValues().map((v) => String(v).trim()))
        .filter((name) => name !== '');
      const all = [...new Set([...named, ...extraCategories])];
      return all.length > 0 ? { categories: all } : {};
    },
  },
  website: {
    property: 'URL',
    read: (event) => {
      const url = event.component.getFirstPropertyValue('url');
      return typeof url === 'string' && /^https?:\/\//i.test(url) ? { website: url } : {};
    },
  },
  recurrence: { property: 'RRULE', elsewhere: 'readIcal: RRULE, RDATE and EXDATE of a series, with its exceptions' },
  status: none('STATUS says whether the event takes place (CANCELLED removes it), not its publication'),
  excerpt: none('iCalendar has one description'),
  slug: none('made from the title'),
  date: none('made when imported'),
  date_utc: none('made when imported'),
  author: none('the import writes as its own author'),
  image: none('ATTACH and IMAGE are not read: a feed names files that are not images as well'),
  password: none('a feed has no passwords'),
  post_parent: none('RELATED-TO is not read'),
  cost: none('RFC 5545 has no property for prices'),
  show_map: none('how the site shows the venue'),
  show_map_link: none('how the site shows the venue'),
  hide_from_listings: none('a feed lists what it shows'),
  sticky: none('the order of the calendar view'),
  featured: none('calendar apps have no featured events'),
  tags: none('CATEGORIES become categories'),
};

/** The readers of the fields a VEVENT holds, each once. */
export const ICAL_FIELD_READERS = Object.values(ICAL_EVENT_FIELDS as Record<string, IcalFieldSource>).flatMap(
  (source) => ('read' in source ? [source.read] : []),
);
