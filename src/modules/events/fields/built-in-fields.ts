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
} from '../../../common/http/post-schemas';
import { sqlUtcToDateTime } from '../../../common/dates/zoned-time';
import type { ImageObject } from '../../../core/posts/attachments/image.mapper';
import type { TermObject } from '../../../core/terms/term.mapper';
import type { CostDetails } from '../model/event-cost';
import type { CreateEventDto } from '../rest/dto/create-event.dto';
import { icalText, plainTextOf, text } from '../ical/ical-text';
import { timesOf, utcOf } from '../ical/vevent-times';
import { categoriesProperty, modifiedProperties, statusProperties } from '../ical/vevent-writers';
import type { EventMember, EventMembers } from './event-member-types';
import { PASSWORD_PROTECTED, RECURRENCE, SERIES_ID } from './event-member-texts';
import type { SeriesSharing } from './series-sharing';
import type { VeventUse } from './vevent-use';

type MemberName = keyof EventMembers;
type WriteName = keyof Required<CreateEventDto>;

/**
 * One built-in field of the event, declared once with every part it has: a member of the event object
 * (`member`: response schema, blanking, json_ld) and its part in a VEVENT (`vevent`), and a write field of
 * `POST /events` with what it is to a series' occurrences (`write`). Which parts a name must have follows from
 * its type: a member of {@link EventMembers} needs `member` and `vevent`, a field of `CreateEventDto` `write`.
 */
export type BuiltInField<K extends MemberName | WriteName> = (K extends MemberName
  ? { readonly member: EventMember<EventMembers[K]>; readonly vevent: VeventUse<EventMembers[K]> }
  : { readonly member?: undefined; readonly vevent?: undefined }) &
  (K extends WriteName ? { readonly write: SeriesSharing } : { readonly write?: undefined });

const as = <V>(member: EventMember<V>): EventMember<V> => member;
const HEAD = (name: keyof typeof POST_HEAD) => ({ schema: POST_HEAD[name] });
const emptyText = (): string => '';
const noTerms = (): TermObject[] => [];
const isoIn = (utc: string, zone: string): string =>
  sqlUtcToDateTime(utc).setZone(zone).toISO({ suppressMilliseconds: true }) ?? utc;
const none = (why: string) => ({ none: why });
const readBack = none('read back from other members: not a property of its own');
const times = { series: 'times' } as const;
const model = { series: 'model' } as const;
/** A flag of the event's details: blanked on a protected event, shared by a series, not in feeds. */
const flag = (stored: SeriesSharing & { series: 'template' }, why: string) => ({
  member: as<boolean | null>({ schema: nullableBool, blank: () => null }),
  vevent: none(why),
  write: stored,
});

/**
 * Every built-in field of the event, declared once, in the event object's order (write-only fields where
 * their neighbours are). A mapped type: a member the mapper adds, or a field `CreateEventDto` gains, fails
 * `tsc` here until it says what it is on every path. The object's views (`event-members.ts`), the feeds
 * (`ical/vevent-members.ts`) and series (`event-write-fields.ts`) read their parts from here.
 */
export const BUILT_IN_FIELDS: { readonly [K in MemberName | WriteName]: BuiltInField<K> } = {
  id: { member: HEAD('id'), vevent: none('UID carries the global id, which survives a move between sites') },
  global_id: { member: HEAD('global_id'), vevent: { property: 'UID', write: (id) => ({ id: String(id) }) } },
  global_id_lineage: {
    member: HEAD('global_id_lineage'),
    vevent: none('the ids the event had before: UID is the current one'),
  },
  author: { member: HEAD('author'), vevent: none('a user id of this site'), write: model },
  status: {
    member: {
      ...HEAD('status'),
      jsonLd: { property: 'eventStatus', value: () => 'https://schema.org/EventScheduled' },
    },
    vevent: { property: 'STATUS', write: (status) => statusProperties(status) },
    write: model,
  },
  date: { member: HEAD('date'), vevent: none('CREATED carries date_utc'), write: model },
  date_utc: {
    member: HEAD('date_utc'),
    vevent: {
      property: 'CREATED',
      write: (date) => ({ created: typeof date === 'string' ? utcOf(date).toJSDate() : undefined }),
    },
    write: model,
  },
  modified: { member: HEAD('modified'), vevent: none('LAST-MODIFIED carries modified_utc') },
  modified_utc: {
    member: HEAD('modified_utc'),
    vevent: { property: 'LAST-MODIFIED', write: (own, _event, context) => modifiedProperties(String(own), context) },
  },
  url: {
    member: { ...HEAD('url'), jsonLd: { property: 'url', value: (url) => url } },
    vevent: { property: 'URL', write: (url) => ({ url: typeof url === 'string' ? icalText(url) : undefined }) },
  },
  rest_url: { member: HEAD('rest_url'), vevent: none("the service's own address of the event") },
  title: {
    member: { schema: str, jsonLd: { property: 'name', value: (title) => title } },
    vevent: { property: 'SUMMARY', write: (title) => ({ summary: text(title) }) },
    write: model,
  },
  description: {
    member: { schema: str, blank: emptyText, jsonLd: { property: 'description', value: (html) => html } },
    vevent: {
      property: 'DESCRIPTION',
      write: (html) => ({ description: plainTextOf(typeof html === 'string' ? html : '') || undefined }),
    },
    write: { series: 'template', stored: ({ post }) => post.content },
  },
  excerpt: {
    member: { schema: str, blank: emptyText },
    vevent: none('DESCRIPTION carries the description'),
    write: { series: 'template', stored: ({ post }) => post.excerpt },
  },
  post_parent: { write: { series: 'template', stored: ({ post }) => post.parentId ?? 0 } },
  slug: { member: { schema: str }, vevent: none('URL carries the page the slug names'), write: { series: 'own' } },
  image: {
    member: as<ImageObject | false>({
      schema: IMAGE,
      blank: () => false,
      jsonLd: { property: 'image', value: (image) => (image ? image.url : undefined) },
    }),
    vevent: none('calendar apps show no event images'),
    write: model,
  },
  password: { write: model },
  // DTSTART and DTEND: all-day events as dates, timed ones in their zone (or UTC), from these members together.
  all_day: { member: { schema: bool }, vevent: { property: 'DTSTART', with: 'start_date' }, write: times },
  start_date: {
    member: { schema: DATE },
    vevent: { property: 'DTSTART', write: (_start, event, { hasZone }) => timesOf(event, hasZone) },
    write: times,
  },
  start_date_details: { member: { schema: DATE_DETAILS }, vevent: readBack },
  end_date: { member: { schema: DATE }, vevent: { property: 'DTEND', with: 'start_date' }, write: times },
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
    write: times,
  },
  timezone_abbr: { member: { schema: str }, vevent: readBack },
  cost: {
    member: { schema: str, blank: emptyText },
    vevent: none('RFC 5545 has no property for prices'),
    write: { series: 'template', stored: ({ details }) => details.cost },
  },
  cost_details: {
    member: as<CostDetails>({
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
    }),
    vevent: none('RFC 5545 has no property for prices'),
  },
  website: {
    member: { schema: str, blank: emptyText },
    vevent: none('URL carries the event page'),
    write: { series: 'template', stored: ({ details }) => details.website },
  },
  show_map: flag({ series: 'template', stored: ({ details }) => details.showMap }, 'how the site shows the venue'),
  show_map_link: flag(
    { series: 'template', stored: ({ details }) => details.showMapLink },
    'how the site shows the venue',
  ),
  hide_from_listings: flag(
    { series: 'template', stored: ({ details }) => details.hideFromListings },
    'a feed lists no event hidden from listings',
  ),
  sticky: flag({ series: 'template', stored: ({ details }) => details.sticky }, 'the order of the calendar view'),
  featured: flag(
    { series: 'template', stored: ({ details }) => details.featured },
    'calendar apps have no featured events',
  ),
  series_id: {
    member: { schema: SERIES_ID },
    vevent: { property: 'RRULE', elsewhere: "series-vevents.ts writes a series once, from its row's lines" },
  },
  recurrence: {
    member: { schema: RECURRENCE },
    vevent: { property: 'RRULE', elsewhere: "series-vevents.ts writes a series once, from its row's lines" },
    write: { series: 'lines' },
  },
  password_protected: {
    member: { schema: PASSWORD_PROTECTED },
    vevent: none('a feed shows a protected event blanked'),
  },
  categories: {
    member: { schema: arrayOf(ref('Term')), blank: noTerms },
    vevent: { property: 'CATEGORIES', write: (terms) => categoriesProperty(terms) },
    write: { series: 'terms' },
  },
  tags: {
    member: { schema: arrayOf(ref('Term')), blank: noTerms },
    vevent: none('CATEGORIES carries the categories'),
    write: { series: 'terms' },
  },
};

/** The built-in fields in the catalogue's order, each with its parts. */
export const BUILT_IN_FIELD_LIST = Object.entries(BUILT_IN_FIELDS) as [
  MemberName | WriteName,
  { member?: EventMember<unknown>; vevent?: VeventUse<unknown>; write?: SeriesSharing },
][];
