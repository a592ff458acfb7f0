import { sqlUtcToDateTime } from '../../../common/dates/zoned-time';
import { dateDetails, timeZoneAbbreviation } from '../../../common/dates/time-zone-name';
import type { RequestContext } from '../../../common/http/request-context';
import { wpTitleHtml } from '../../../common/text/wordpress-text';
import type { AttachmentDetailsEntity } from '../../../core/posts/attachments/attachment-details.entity';
import { toImageObject } from '../../../core/posts/attachments/image.mapper';
import { basePostFields, postHead, withoutEmpty } from '../../../core/posts/post.mapper';
import type { PostEntity } from '../../../core/posts/post.entity';
import type { TermObject } from '../../../core/terms/term.mapper';
import { costDetails, formatCost, type Currency } from './event-cost';
import type { EventDetailsEntity } from './event-details.entity';
import { EVENT_POST_TYPE, EVENTS_REST_BASE } from './event.post-type';

/** What an event object embeds, loaded in batches by the service. */
export interface EventRelations {
  image?: AttachmentDetailsEntity;
  categories: TermObject[];
  tags: TermObject[];
  /** Each declared link's records, in declaration order (behaviour.md §5: `venue`, then `organizer`). */
  links: { field: string; cardinality: 'one' | 'many'; objects: object[] }[];
  /** The series' lines (behaviour.md §11), for an occurrence; null for a single event. */
  recurrence: string[] | null;
}

export type EventObject = Record<string, unknown> & { id: number; title: string };

// One collator for every page: `localeCompare` with options builds a new one on each call.
const nameCollator = new Intl.Collator('en', { sensitivity: 'base' });
/** Terms as events list them: by name, whatever the case, then by id. */
export const byTermName = (a: TermObject, b: TermObject) => nameCollator.compare(a.name, b.name) || a.id - b.id;

/**
 * The event object of behaviour.md §5. `blank` is for a password-protected event read without the
 * password: listed, but with its content, cost, website, image, flags and links emptied.
 */
export function toEventObject(
  post: PostEntity,
  details: EventDetailsEntity,
  relations: EventRelations,
  ctx: RequestContext,
  nowUtc: string,
  blank: boolean,
): EventObject {
  const base = basePostFields(post, EVENT_POST_TYPE, EVENTS_REST_BASE, ctx, nowUtc);
  const { id, ...head } = postHead(base);
  const currency: Currency = {
    symbol: details.currencySymbol,
    code: details.currencyCode,
    position: details.currencyPosition,
  };
  const cost = costDetails(details.cost, currency);
  const flag = (value: boolean): boolean | null => (blank ? null : value);
  const startInstant = sqlUtcToDateTime(details.startUtc);
  return {
    id,
    global_id: base.global_id,
    global_id_lineage: base.global_id_lineage,
    ...head,
    title: ctx.dialect === 'tec' ? wpTitleHtml(post.title) : post.title,
    description: blank ? '' : post.content,
    excerpt: blank ? '' : post.excerpt,
    slug: post.slug,
    image: !blank && relations.image ? toImageObject(relations.image) : false,
    all_day: details.allDay,
    start_date: details.startLocal,
    start_date_details: dateDetails(details.startLocal),
    end_date: details.endLocal,
    end_date_details: dateDetails(details.endLocal),
    utc_start_date: details.startUtc,
    utc_start_date_details: dateDetails(details.startUtc),
    utc_end_date: details.endUtc,
    utc_end_date_details: dateDetails(details.endUtc),
    timezone: details.timezone,
    timezone_abbr: timeZoneAbbreviation(startInstant, details.timezone),
    cost: blank ? '' : formatCost(details.cost, currency),
    cost_details: { ...cost, values: blank ? [] : cost.values },
    website: blank ? '' : details.website || base.url,
    show_map: flag(details.showMap),
    show_map_link: flag(details.showMapLink),
    hide_from_listings: flag(details.hideFromListings),
    sticky: flag(details.sticky),
    featured: flag(details.featured),
    series_id: details.seriesId ?? null,
    recurrence: details.seriesId === null ? null : relations.recurrence,
    // Editors read a protected event in full: without this, nothing in what they read says it is protected.
    password_protected: post.passwordHash !== null,
    categories: blank ? [] : [...relations.categories].sort(byTermName),
    tags: blank ? [] : [...relations.tags].sort(byTermName),
    ...Object.fromEntries(
      relations.links.map(({ field, cardinality, objects }) => [
        field,
        blank ? [] : cardinality === 'one' ? (objects[0] ?? []) : objects,
      ]),
    ),
  };
}

const isoIn = (utc: string, zone: string): string =>
  sqlUtcToDateTime(utc).setZone(zone).toISO({ suppressMilliseconds: true }) ?? utc;

const withoutContext = (node: Record<string, unknown>): Record<string, unknown> => {
  const copy = { ...node };
  delete copy['@context'];
  return copy;
};

/**
 * schema.org `Event`, for single reads. `linked` holds, per schema.org property (`location`,
 * `organizer`), the json_ld of the linked records: one node or a list.
 */
export function toEventJsonLd(
  event: EventObject,
  details: EventDetailsEntity,
  linked: Record<string, Record<string, unknown> | Record<string, unknown>[] | undefined>,
): Record<string, unknown> {
  const nested = Object.fromEntries(
    Object.entries(linked).map(([property, value]) => [
      property,
      Array.isArray(value)
        ? value.length > 0
          ? value.map(withoutContext)
          : undefined
        : value && withoutContext(value),
    ]),
  );
  const values = (event.cost_details as { values: string[] }).values;
  const image = event.image as { url?: string } | false;
  return withoutEmpty({
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.description,
    url: event.url,
    startDate: isoIn(details.startUtc, details.timezone),
    endDate: isoIn(details.endUtc, details.timezone),
    eventStatus: 'https://schema.org/EventScheduled',
    image: image ? image.url : undefined,
    ...nested,
    offers:
      values.length > 0
        ? { '@type': 'Offer', price: values[0], priceCurrency: details.currencyCode, url: event.url }
        : undefined,
  });
}
