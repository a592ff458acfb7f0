import type { RowDataPacket } from 'mysql2';
import type { AttachmentDetailsEntity } from '../../src/core/posts/attachments/attachment-details.entity';
import type { PostEntity } from '../../src/core/posts/post.entity';
import type { TermEntity } from '../../src/core/terms/term.entity';
import type { EventDetailsEntity } from '../../src/modules/events/model/event-details.entity';
import type { OrganizerDetailsEntity } from '../../src/modules/organizers/organizer-details.entity';
import type { VenueDetailsEntity } from '../../src/modules/venues/venue-details.entity';

/**
 * Hand-written column lists and row shaping for the baseline: the same rows the service reads, turned
 * into the plain shapes its mappers take, without an ORM.
 */
export const POST_COLUMNS = (a: string) =>
  `${a}.id, ${a}.type, ${a}.slug, ${a}.title, ${a}.content, ${a}.excerpt, ${a}.status, ${a}.author_id, ` +
  `${a}.parent_id, ${a}.password_hash, ${a}.trashed_from, ${a}.featured_image_id, ${a}.menu_order, ` +
  `${a}.date_local, ${a}.date_utc, ${a}.modified_local, ${a}.modified_utc`;

export const EVENT_COLUMNS =
  'd.start_local, d.end_local, d.start_utc, d.end_utc, d.timezone, d.all_day, d.cost, d.currency_symbol, ' +
  'd.currency_code, d.currency_position, d.website AS event_website, d.show_map, d.show_map_link, ' +
  'd.hide_from_listings, d.sticky, d.featured';

export const VENUE_COLUMNS =
  'v.address, v.city, v.country, v.province, v.state, v.zip, v.phone, v.stateprovince, v.website, ' +
  'v.show_map, v.show_map_link';

export const ORGANIZER_COLUMNS = 'o.phone, o.website, o.email';

const bool = (value: unknown): boolean => Number(value) === 1;
const nullableBool = (value: unknown): boolean | null => (value === null ? null : bool(value));

export function postOf(r: RowDataPacket): PostEntity {
  return {
    id: r.id,
    type: r.type,
    slug: r.slug,
    title: r.title,
    content: r.content,
    excerpt: r.excerpt,
    status: r.status,
    authorId: r.author_id,
    parentId: r.parent_id,
    passwordHash: r.password_hash,
    trashedFrom: r.trashed_from,
    featuredImageId: r.featured_image_id,
    menuOrder: r.menu_order,
    dateLocal: r.date_local,
    dateUtc: r.date_utc,
    modifiedLocal: r.modified_local,
    modifiedUtc: r.modified_utc,
  };
}

export function eventDetailsOf(r: RowDataPacket): EventDetailsEntity {
  return {
    postId: r.id,
    startLocal: r.start_local,
    endLocal: r.end_local,
    startUtc: r.start_utc,
    endUtc: r.end_utc,
    timezone: r.timezone,
    allDay: bool(r.all_day),
    cost: r.cost,
    currencySymbol: r.currency_symbol,
    currencyCode: r.currency_code,
    currencyPosition: r.currency_position,
    website: r.event_website,
    showMap: bool(r.show_map),
    showMapLink: bool(r.show_map_link),
    hideFromListings: bool(r.hide_from_listings),
    sticky: bool(r.sticky),
    featured: bool(r.featured),
    seriesId: r.series_id ?? null,
    occurrenceLocal: r.occurrence_local ?? null,
    detached: bool(r.detached),
  };
}

export function venueDetailsOf(r: RowDataPacket): VenueDetailsEntity {
  return {
    postId: r.id,
    address: r.address,
    city: r.city,
    country: r.country,
    province: r.province,
    state: r.state,
    zip: r.zip,
    phone: r.phone,
    stateprovince: r.stateprovince,
    website: r.website,
    showMap: nullableBool(r.show_map),
    showMapLink: nullableBool(r.show_map_link),
  };
}

export function organizerDetailsOf(r: RowDataPacket): OrganizerDetailsEntity {
  return { postId: r.id, phone: r.phone, website: r.website, email: r.email };
}

export function termOf(r: RowDataPacket): TermEntity {
  return {
    id: r.id,
    taxonomy: r.taxonomy,
    name: r.name,
    slug: r.slug,
    description: r.description,
    parentId: r.parent_id,
    count: r.count,
  };
}

export function imageOf(r: RowDataPacket): AttachmentDetailsEntity {
  return { postId: r.post_id, url: r.url, mimeType: r.mime_type };
}
