import {
  arrayOf,
  bool,
  DATE,
  DATE_DETAILS,
  IMAGE,
  nullableBool,
  object,
  POST_HEAD,
  ref,
  str,
  type Schema,
} from '../../../common/http/post-schemas';
import { sqlUtcToDateTime } from '../../../common/dates/zoned-time';
import type { dateDetails } from '../../../common/dates/time-zone-name';
import type { ImageObject } from '../../../core/posts/attachments/image.mapper';
import type { BasePostFields } from '../../../core/posts/post.mapper';
import type { TermObject } from '../../../core/terms/term.mapper';
import type { CostDetails } from '../model/event-cost';
import { PASSWORD_PROTECTED, RECURRENCE, SERIES_ID } from './event-member-texts';

type DateDetails = ReturnType<typeof dateDetails>;

/** The event object's own members (behaviour.md §5), in the order it lists them; links and modules' follow. */
export type EventMembers = BasePostFields & {
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: ImageObject | false;
  all_day: boolean;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  cost_details: CostDetails;
  website: string;
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  series_id: number | null;
  recurrence: string[] | null;
  password_protected: boolean;
  categories: TermObject[];
  tags: TermObject[];
};

/**
 * What one member of the event object is in every view of an event: its response schema (the OpenAPI `Event`
 * component is made of these), what a password-protected event read without its password shows instead
 * (`blank`), the schema.org property of the event's json_ld that carries it, and the iCalendar property a feed
 * writes it as (or why a feed leaves it out).
 */
export interface EventMember<V> {
  readonly schema: Schema;
  readonly blank?: (shown: V) => V;
  readonly jsonLd?: { readonly property: string; readonly value: (shown: V, event: EventMembers) => unknown };
  readonly ical: { readonly property: string } | { readonly none: string };
}

const as = <V>(member: EventMember<V>): EventMember<V> => member;
const HEAD = (name: keyof typeof POST_HEAD, ical: EventMember<unknown>['ical']) => ({ schema: POST_HEAD[name], ical });
const emptyText = (): string => '';
const hiddenFlag = (): null => null;
const noTerms = (): TermObject[] => [];
const isoIn = (utc: string, zone: string): string =>
  sqlUtcToDateTime(utc).setZone(zone).toISO({ suppressMilliseconds: true }) ?? utc;
const readBack = { none: 'read back from other members: not a property of its own' };
const flag = (ical: EventMember<boolean | null>['ical']) =>
  as<boolean | null>({ schema: nullableBool, blank: hiddenFlag, ical });

/**
 * Every member of the event object, declared once. A mapped type over {@link EventMembers}, which the mapper
 * returns: a member the mapper adds fails `tsc` here until it is declared, and one declared here fails there
 * until the mapper gives it. The OpenAPI component, the blanking of protected events and the json_ld are
 * made from these declarations; the iCalendar properties are checked against them (test/e2e/field-catalogue).
 */
export const EVENT_MEMBERS: { readonly [K in keyof EventMembers]: EventMember<EventMembers[K]> } = {
  id: HEAD('id', { none: 'UID carries the global id, which survives a move between sites' }),
  global_id: HEAD('global_id', { property: 'UID' }),
  global_id_lineage: HEAD('global_id_lineage', { none: 'the ids the event had before: UID is the current one' }),
  author: HEAD('author', { none: 'a user id of this site' }),
  status: {
    ...HEAD('status', { property: 'STATUS' }),
    jsonLd: { property: 'eventStatus', value: () => 'https://schema.org/EventScheduled' },
  },
  date: HEAD('date', { none: 'CREATED carries date_utc' }),
  date_utc: HEAD('date_utc', { property: 'CREATED' }),
  modified: HEAD('modified', { none: 'LAST-MODIFIED carries modified_utc' }),
  modified_utc: HEAD('modified_utc', { property: 'LAST-MODIFIED' }),
  url: { ...HEAD('url', { property: 'URL' }), jsonLd: { property: 'url', value: (url) => url } },
  rest_url: HEAD('rest_url', { none: "the service's own address of the event" }),
  title: { schema: str, jsonLd: { property: 'name', value: (title) => title }, ical: { property: 'SUMMARY' } },
  description: {
    schema: str,
    blank: emptyText,
    jsonLd: { property: 'description', value: (description) => description },
    ical: { property: 'DESCRIPTION' },
  },
  excerpt: { schema: str, blank: emptyText, ical: { none: 'DESCRIPTION carries the description' } },
  slug: { schema: str, ical: { none: 'URL carries the page the slug names' } },
  image: as<ImageObject | false>({
    schema: IMAGE,
    blank: () => false,
    jsonLd: { property: 'image', value: (image) => (image ? image.url : undefined) },
    ical: { none: 'calendar apps show no event images' },
  }),
  all_day: { schema: bool, ical: { property: 'DTSTART' } },
  start_date: { schema: DATE, ical: { property: 'DTSTART' } },
  start_date_details: { schema: DATE_DETAILS, ical: readBack },
  end_date: { schema: DATE, ical: { property: 'DTEND' } },
  end_date_details: { schema: DATE_DETAILS, ical: readBack },
  utc_start_date: {
    schema: DATE,
    jsonLd: { property: 'startDate', value: (utc, event) => isoIn(utc, event.timezone) },
    ical: { property: 'DTSTART' },
  },
  utc_start_date_details: { schema: DATE_DETAILS, ical: readBack },
  utc_end_date: {
    schema: DATE,
    jsonLd: { property: 'endDate', value: (utc, event) => isoIn(utc, event.timezone) },
    ical: { property: 'DTEND' },
  },
  utc_end_date_details: { schema: DATE_DETAILS, ical: readBack },
  timezone: { schema: str, ical: { property: 'TZID' } },
  timezone_abbr: { schema: str, ical: readBack },
  cost: { schema: str, blank: emptyText, ical: { none: 'RFC 5545 has no property for prices' } },
  cost_details: as<CostDetails>({
    schema: object({
      currency_symbol: str,
      currency_code: str,
      currency_position: { type: 'string', enum: ['prefix', 'postfix'] },
      values: arrayOf(str),
    }),
    blank: (details) => ({ ...details, values: [] }),
    jsonLd: {
      property: 'offers',
      value: (details, event) =>
        details.values.length > 0
          ? { '@type': 'Offer', price: details.values[0], priceCurrency: details.currency_code, url: event.url }
          : undefined,
    },
    ical: { none: 'RFC 5545 has no property for prices' },
  }),
  website: { schema: str, blank: emptyText, ical: { none: 'URL carries the event page' } },
  show_map: flag({ none: 'how the site shows the venue' }),
  show_map_link: flag({ none: 'how the site shows the venue' }),
  hide_from_listings: flag({ none: 'a feed lists no event hidden from listings' }),
  sticky: flag({ none: 'the order of the calendar view' }),
  featured: flag({ none: 'calendar apps have no featured events' }),
  series_id: { schema: SERIES_ID, ical: { property: 'RRULE' } },
  recurrence: { schema: RECURRENCE, ical: { property: 'RRULE' } },
  password_protected: { schema: PASSWORD_PROTECTED, ical: { none: 'a feed shows a protected event blanked' } },
  categories: { schema: arrayOf(ref('Term')), blank: noTerms, ical: { property: 'CATEGORIES' } },
  tags: { schema: arrayOf(ref('Term')), blank: noTerms, ical: { none: 'CATEGORIES carries the categories' } },
};

/** The members in the object's order, each with its declaration. */
export const EVENT_MEMBER_LIST = Object.entries(EVENT_MEMBERS) as [keyof EventMembers, EventMember<unknown>][];

/** The members a protected event read without its password shows blanked, with what it shows instead. */
export const BLANKED_MEMBERS = EVENT_MEMBER_LIST.flatMap(([name, member]) =>
  member.blank ? [{ name, blank: member.blank }] : [],
);

/** The members its json_ld carries, in the object's order. */
export const JSON_LD_MEMBERS = EVENT_MEMBER_LIST.flatMap(([name, member]) =>
  member.jsonLd ? [{ name, ...member.jsonLd }] : [],
);
