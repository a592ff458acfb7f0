import { sqlUtcToDateTime } from '../../../common/dates/zoned-time';
import { wallMsOf } from '../../../common/dates/wall-time';
import { dateDetails, timeZoneAbbreviation } from '../../../common/dates/time-zone-name';
import type { RequestContext } from '../../../common/http/request-context';
import { wpTitleHtml } from '../../../common/text/wordpress-text';
import type { AttachmentDetailsEntity } from '../../../core/posts/attachments/attachment-details.entity';
import { toImageObject } from '../../../core/posts/attachments/image.mapper';
import { basePostFields, postHead, withoutEmpty } from '../../../core/posts/post.mapper';
import type { PostEntity } from '../../../core/posts/post.entity';
import type { TermObject } from '../../../core/terms/term.mapper';
import { costDetails, formatCost, type Currency } from './event-cost';
import { moduleJsonLdMembers } from '../fields/event-field-declarations';
import { BLANKED_MEMBERS, JSON_LD_MEMBERS, type EventMembers } from '../fields/event-members';
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

/** An event object: its own members (`EventMembers`), then its links' and the modules' members. */
export type EventObject = EventMembers & Record<string, unknown>;

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
  const startMs = wallMsOf(details.startUtc) ?? sqlUtcToDateTime(details.startUtc).toMillis();
  const members: EventMembers = {
    id,
    global_id: base.global_id,
    global_id_lineage: base.global_id_lineage,
    ...head,
    title: ctx.dialect === 'tec' ? wpTitleHtml(post.title) : post.title,
    description: post.content,
    excerpt: post.excerpt,
    slug: post.slug,
    image: relations.image ? toImageObject(relations.image) : false,
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
    timezone_abbr: timeZoneAbbreviation(startMs, details.timezone),
    cost: formatCost(details.cost, currency),
    cost_details: costDetails(details.cost, currency),
    website: details.website || base.url,
    show_map: details.showMap,
    show_map_link: details.showMapLink,
    hide_from_listings: details.hideFromListings,
    sticky: details.sticky,
    featured: details.featured,
    series_id: details.seriesId ?? null,
    recurrence: details.seriesId === null ? null : relations.recurrence,
    // Editors read a protected event in full: without this, nothing in what they read says it is protected.
    password_protected: post.passwordHash !== null,
    categories: [...relations.categories].sort(byTermName),
    tags: [...relations.tags].sort(byTermName),
  };
  const object: EventObject = blank ? blanked(members) : members;
  // Each link's records: one object or `[]`, or the list; none for a protected event read without its password.
  for (const { field, cardinality, objects } of relations.links)
    object[field] = blank ? [] : cardinality === 'one' ? (objects[0] ?? []) : objects;
  return object;
}

/** The members as a protected event read without its password shows them (each member's declared `blank`). */
function blanked(members: EventMembers): EventObject {
  const object: Record<string, unknown> = members;
  for (const { name, blank } of BLANKED_MEMBERS) object[name] = blank(object[name]);
  return members;
}

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
  const own: Record<string, unknown> = {};
  for (const member of JSON_LD_MEMBERS) own[member.property] = member.value(event[member.name], event);
  for (const member of moduleJsonLdMembers()) own[member.property] = member.value(event[member.name]);
  const { offers, ...rest } = own;
  return withoutEmpty({ '@context': 'http://schema.org', '@type': 'Event', ...rest, ...nested, offers });
}
