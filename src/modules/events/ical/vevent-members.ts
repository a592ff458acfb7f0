import { ICalEventClass, ICalEventStatus, type ICalEventData } from 'ical-generator';
import type { EventMembers } from '../fields/event-members';
import { icalText, plainTextOf, text } from './ical-text';
import { timesOf, utcOf, type VeventSource } from './vevent-times';

/** SEQUENCE counts seconds of modification time from here: it grows with every edit and fits 32 bits until 2088. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

interface VeventContext {
  hasZone: (zone: string) => boolean;
  /** When the event or anything it shows last changed (`change_heads`), if later than the event itself. */
  changedUtc: string | null;
}

/**
 * What one member of the event object is in a VEVENT: the property it is written as (`write` gives it), a
 * property another member's writer fills (`with`), one another part of the feed writes (`elsewhere`), or none,
 * and why.
 */
export type VeventUse<V> =
  | {
      readonly property: string;
      readonly write: (value: V, event: VeventSource, context: VeventContext) => Partial<ICalEventData>;
    }
  | { readonly property: string; readonly with: keyof EventMembers }
  | { readonly property: string; readonly elsewhere: string }
  | { readonly none: string };

const none = (why: string) => ({ none: why });
const readBack = none('read back from other members: not a property of its own');

/**
 * Every member of the event object and its part in a VEVENT: a mapped type over `EventMembers`, so a member
 * the mapper adds fails `tsc` here until the feeds say what they make of it. `toICalEventData` writes the
 * VEVENT from these; test/e2e/field-catalogue checks each write field's property in a feed and its round trip.
 */
export const VEVENT_MEMBERS: { readonly [K in keyof EventMembers]: VeventUse<EventMembers[K]> } = {
  id: none('UID carries the global id, which survives a move between sites'),
  global_id: { property: 'UID', write: (id) => ({ id: String(id) }) },
  global_id_lineage: none('the ids the event had before: UID is the current one'),
  author: none('a user id of this site'),
  status: {
    property: 'STATUS',
    write: (status) => ({
      status: status === 'publish' || status === 'private' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
      class: status === 'private' ? ICalEventClass.PRIVATE : undefined,
    }),
  },
  date: none('CREATED carries date_utc'),
  date_utc: {
    property: 'CREATED',
    write: (date) => ({ created: typeof date === 'string' ? utcOf(date).toJSDate() : undefined }),
  },
  modified: none('LAST-MODIFIED carries modified_utc'),
  modified_utc: {
    property: 'LAST-MODIFIED',
    // What a subscriber sees changes when a venue, organizer or category shown in the event changes too
    // (`change_heads`): SEQUENCE and LAST-MODIFIED must move then, or clients keep the old LOCATION.
    write: (own, _event, { changedUtc }) => {
      const modified = utcOf(changedUtc && changedUtc > String(own) ? changedUtc : String(own));
      return {
        stamp: modified.toJSDate(),
        lastModified: modified.toJSDate(),
        sequence: Math.max(0, Math.floor((modified.toMillis() - SEQUENCE_EPOCH_MS) / 1000)),
      };
    },
  },
  url: { property: 'URL', write: (url) => ({ url: typeof url === 'string' ? icalText(url) : undefined }) },
  rest_url: none("the service's own address of the event"),
  title: { property: 'SUMMARY', write: (title) => ({ summary: text(title) }) },
  description: {
    property: 'DESCRIPTION',
    write: (html) => ({ description: plainTextOf(typeof html === 'string' ? html : '') || undefined }),
  },
  excerpt: none('DESCRIPTION carries the description'),
  slug: none('URL carries the page the slug names'),
  image: none('calendar apps show no event images'),
  // DTSTART and DTEND: all-day events as dates, timed ones in their zone (or UTC), from these members together.
  start_date: { property: 'DTSTART', write: (_start, event, { hasZone }) => timesOf(event, hasZone) },
  all_day: { property: 'DTSTART', with: 'start_date' },
  start_date_details: readBack,
  end_date: { property: 'DTEND', with: 'start_date' },
  end_date_details: readBack,
  utc_start_date: { property: 'DTSTART', with: 'start_date' },
  utc_start_date_details: readBack,
  utc_end_date: { property: 'DTEND', with: 'start_date' },
  utc_end_date_details: readBack,
  // A timed event's zone is DTSTART's TZID; an all-day one's (whole days have none) an X- property.
  timezone: {
    property: 'X-CAL-TIMEZONE',
    write: (zone, event) => (event.all_day === true ? { x: [{ key: 'X-CAL-TIMEZONE', value: String(zone) }] } : {}),
  },
  timezone_abbr: readBack,
  cost: none('RFC 5545 has no property for prices'),
  cost_details: none('RFC 5545 has no property for prices'),
  website: none('URL carries the event page'),
  show_map: none('how the site shows the venue'),
  show_map_link: none('how the site shows the venue'),
  hide_from_listings: none('a feed lists no event hidden from listings'),
  sticky: none('the order of the calendar view'),
  featured: none('calendar apps have no featured events'),
  series_id: { property: 'RRULE', elsewhere: "series-vevents.ts writes a series once, from its row's lines" },
  recurrence: { property: 'RRULE', elsewhere: "series-vevents.ts writes a series once, from its row's lines" },
  password_protected: none('a feed shows a protected event blanked'),
  categories: {
    property: 'CATEGORIES',
    write: (terms) => ({
      categories: (Array.isArray(terms) ? terms : [])
        .map((term) => text(term.name))
        .filter((name) => name !== '')
        .map((name) => ({ name })),
    }),
  },
  tags: none('CATEGORIES carries the categories'),
};

/** The members in the object's order, each with its part in a VEVENT. */
export const VEVENT_MEMBER_LIST = Object.entries(VEVENT_MEMBERS) as [keyof EventMembers, VeventUse<unknown>][];
