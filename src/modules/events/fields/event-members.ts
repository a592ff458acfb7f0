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
 * What one member of the event object is in the views made from the object: its response schema (the OpenAPI
 * `Event` component is made of these), what a password-protected event read without its password shows
 * instead (`blank`) and the schema.org property of the event's json_ld that carries it. What the feeds make of
 * it is the feeds' own table over the same members (`ical/vevent-members.ts`).
 */
export interface EventMember<V> {
  readonly schema: Schema;
  readonly blank?: (shown: V) => V;
  readonly jsonLd?: { readonly property: string; readonly value: (shown: V, event: EventMembers) => unknown };
}

const as = <V>(member: EventMember<V>): EventMember<V> => member;
const HEAD = (name: keyof typeof POST_HEAD) => ({ schema: POST_HEAD[name] });
const emptyText = (): string => '';
const hiddenFlag = (): null => null;
const noTerms = (): TermObject[] => [];
const isoIn = (utc: string, zone: string): string =>
  sqlUtcToDateTime(utc).setZone(zone).toISO({ suppressMilliseconds: true }) ?? utc;
const flag = () => as<boolean | null>({ schema: nullableBool, blank: hiddenFlag });

/**
 * Every member of the event object, declared once. A mapped type over {@link EventMembers}, which the mapper
 * returns: a member the mapper adds fails `tsc` here until it is declared, and one declared here fails there
 * until the mapper gives it. The OpenAPI component, the blanking of protected events and the json_ld are
 * made from these declarations.
 */
export const EVENT_MEMBERS: { readonly [K in keyof EventMembers]: EventMember<EventMembers[K]> } = {
  id: HEAD('id'),
  global_id: HEAD('global_id'),
  global_id_lineage: HEAD('global_id_lineage'),
  author: HEAD('author'),
  status: {
    ...HEAD('status'),
    jsonLd: { property: 'eventStatus', value: () => 'https://schema.org/EventScheduled' },
  },
  date: HEAD('date'),
  date_utc: HEAD('date_utc'),
  modified: HEAD('modified'),
  modified_utc: HEAD('modified_utc'),
  url: { ...HEAD('url'), jsonLd: { property: 'url', value: (url) => url } },
  rest_url: HEAD('rest_url'),
  title: { schema: str, jsonLd: { property: 'name', value: (title) => title } },
  description: {
    schema: str,
    blank: emptyText,
    jsonLd: { property: 'description', value: (description) => description },
  },
  excerpt: { schema: str, blank: emptyText },
  slug: { schema: str },
  image: as<ImageObject | false>({
    schema: IMAGE,
    blank: () => false,
    jsonLd: { property: 'image', value: (image) => (image ? image.url : undefined) },
  }),
  all_day: { schema: bool },
  start_date: { schema: DATE },
  start_date_details: { schema: DATE_DETAILS },
  end_date: { schema: DATE },
  end_date_details: { schema: DATE_DETAILS },
  utc_start_date: {
    schema: DATE,
    jsonLd: { property: 'startDate', value: (utc, event) => isoIn(utc, event.timezone) },
  },
  utc_start_date_details: { schema: DATE_DETAILS },
  utc_end_date: {
    schema: DATE,
    jsonLd: { property: 'endDate', value: (utc, event) => isoIn(utc, event.timezone) },
  },
  utc_end_date_details: { schema: DATE_DETAILS },
  timezone: { schema: str },
  timezone_abbr: { schema: str },
  cost: { schema: str, blank: emptyText },
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
  }),
  website: { schema: str, blank: emptyText },
  show_map: flag(),
  show_map_link: flag(),
  hide_from_listings: flag(),
  sticky: flag(),
  featured: flag(),
  series_id: { schema: SERIES_ID },
  recurrence: { schema: RECURRENCE },
  password_protected: { schema: PASSWORD_PROTECTED },
  categories: { schema: arrayOf(ref('Term')), blank: noTerms },
  tags: { schema: arrayOf(ref('Term')), blank: noTerms },
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
