import type { IncomingMessage } from 'node:http';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { DateTime, IANAZone } from 'luxon';
import type { RequestContext } from '../../src/common/http/request-context';
import { buildListResponse, resolvePageRequest } from '../../src/common/pagination/pagination';
import { toTermObject } from '../../src/core/terms/term.mapper';
import { CATEGORY_TAXONOMY } from '../../src/modules/categories/category.taxonomy';
import { toEventJsonLd, toEventObject } from '../../src/modules/events/model/event.mapper';
import { nextDayStart, resolveDateWindow } from '../../src/modules/events/archive/event-window';
import { toOrganizerObject, toPersonJsonLd } from '../../src/modules/organizers/organizer.mapper';
import { TAG_TAXONOMY } from '../../src/modules/tags/tag.taxonomy';
import { toPlaceJsonLd, toVenueObject } from '../../src/modules/venues/venue.mapper';
import {
  EVENT_COLUMNS,
  eventDetailsOf,
  imageOf,
  ORGANIZER_COLUMNS,
  organizerDetailsOf,
  POST_COLUMNS,
  postOf,
  termOf,
  VENUE_COLUMNS,
  venueDetailsOf,
} from './rows';

/**
 * The routes of the cold path's yardsticks (docs/performance.md): `GET /cal/events/v1/events` (date
 * window, page, per_page) and `GET /cal/events/v1/events/{id}` for anonymous callers, with the same bytes
 * as the service, from the same schema and indexes, with hand-written SQL (pooled connections, prepared
 * statements): 6 queries per list page, 5 per event. They reuse the service's pure mapping functions, so
 * a ratio against them measures everything else: framework, ORM, query shape. Served bare by `server.ts`
 * and through a minimal Nest application by `nest-floor.ts`.
 */

const ZONE = IANAZone.create('UTC');
const PUBLIC = "(p.status = 'publish' OR (p.status = 'future' AND p.date_utc <= ?))";
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const nowUtc = () => DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss');

type Rows = RowDataPacket[];

/** An answer: status, headers, body. */
export type Answer = [number, Record<string, string>, unknown];

/** The pool both yardsticks read through. */
export function baselinePool(databaseUrl: string): Pool {
  return createPool({ uri: databaseUrl, connectionLimit: 10, dateStrings: true, timezone: 'Z' });
}

async function objectsOf(pool: Pool, rows: Rows, ctx: RequestContext, now: string) {
  const ids = rows.map((r) => r.id as number);
  if (ids.length === 0) return [];
  const inIds = marks(ids.length);
  const [terms] = await pool.execute<Rows>(
    `SELECT tr.post_id AS event_id, t.id, t.taxonomy, t.name, t.slug, t.description, t.parent_id, t.count
       FROM term_relationships tr INNER JOIN terms t ON t.id = tr.term_id
      WHERE tr.post_id IN (${inIds}) AND t.taxonomy IN (?, ?) ORDER BY tr.term_order, t.id`,
    [...ids, CATEGORY_TAXONOMY.taxonomy, TAG_TAXONOMY.taxonomy],
  );
  const venueScope = PUBLIC.replaceAll('p.', 'vp.');
  const [venues] = await pool.execute<Rows>(
    `SELECT l.event_id, ${POST_COLUMNS('vp')}, ${VENUE_COLUMNS}
       FROM event_venues l INNER JOIN posts vp ON vp.id = l.venue_id AND vp.type = 'cal_venue'
       LEFT JOIN venue_details v ON v.post_id = vp.id
      WHERE l.event_id IN (${inIds}) AND ${venueScope} ORDER BY l.event_id, l.sort_order`,
    [...ids, now],
  );
  const [organizers] = await pool.execute<Rows>(
    `SELECT l.event_id, ${POST_COLUMNS('op')}, ${ORGANIZER_COLUMNS}
       FROM event_organizers l INNER JOIN posts op ON op.id = l.organizer_id AND op.type = 'cal_organizer'
       LEFT JOIN organizer_details o ON o.post_id = op.id
      WHERE l.event_id IN (${inIds}) AND ${PUBLIC.replaceAll('p.', 'op.')} ORDER BY l.event_id, l.sort_order`,
    [...ids, now],
  );
  const imageIds = [
    ...new Set([...rows, ...venues, ...organizers].map((r) => r.featured_image_id as number | null)),
  ].filter((id): id is number => id !== null);
  const [images] =
    imageIds.length === 0
      ? [[] as Rows]
      : await pool.execute<Rows>(
          `SELECT post_id, url, mime_type FROM attachment_details WHERE post_id IN (${marks(imageIds.length)})`,
          imageIds,
        );
  const imageById = new Map(images.map((r) => [r.post_id as number, imageOf(r)]));
  const image = (r: RowDataPacket) => (r.featured_image_id === null ? undefined : imageById.get(r.featured_image_id));
  const group = <T>(list: Rows, build: (r: RowDataPacket) => T) => {
    const by = new Map<number, T[]>();
    for (const r of list) by.set(r.event_id, [...(by.get(r.event_id) ?? []), build(r)]);
    return by;
  };
  const termsBy = group(terms, termOf);
  const venuesBy = group(venues, (r) => toVenueObject(postOf(r), venueDetailsOf(r), image(r), ctx, now));
  const organizersBy = group(organizers, (r) =>
    toOrganizerObject(postOf(r), organizerDetailsOf(r), image(r), ctx, now),
  );
  return rows.map((r) => {
    const own = termsBy.get(r.id) ?? [];
    const ofTaxonomy = (taxonomy: typeof CATEGORY_TAXONOMY) =>
      own.filter((t) => t.taxonomy === taxonomy.taxonomy).map((t) => toTermObject(t, taxonomy, ctx));
    const venue = venuesBy.get(r.id) ?? [];
    const organizer = organizersBy.get(r.id) ?? [];
    const details = eventDetailsOf(r);
    const object = toEventObject(
      postOf(r),
      details,
      {
        image: image(r),
        categories: ofTaxonomy(CATEGORY_TAXONOMY),
        tags: ofTaxonomy(TAG_TAXONOMY),
        // The bench's events are single ones: no series lines to read.
        recurrence: null,
        links: [
          { field: 'venue', cardinality: 'one', objects: venue },
          { field: 'organizer', cardinality: 'many', objects: organizer },
        ],
      },
      ctx,
      now,
      r.password_hash !== null,
    );
    return { object, details, venue, organizer };
  });
}

/** A two-sided window's total from the per-day listing counts, as the service computes it (same schema). */
async function totalByDay(pool: Pool, from: string, until: string, now: string): Promise<number> {
  const firstDay = from.slice(0, 10);
  const lastDay = until.slice(0, 10);
  if (from.endsWith(' 00:00:00') && until.endsWith(' 23:59:59')) {
    // Whole UTC days: the buckets alone, plus scheduled posts already due.
    const whole = await Promise.all([
      pool.execute<Rows>(
        'SELECT SUM(listed) AS n FROM event_listing_days WHERE start_day >= ? AND start_day <= ? AND end_day <= ?',
        [firstDay, lastDay, lastDay],
      ),
      pool.execute<Rows>(
        `SELECT COUNT(*) AS n FROM posts p INNER JOIN event_details d ON d.post_id = p.id
          WHERE p.status = 'future' AND p.date_utc <= ? AND d.hide_from_listings = 0 AND d.start_utc >= ? AND d.end_utc <= ?`,
        [now, from, until],
      ),
    ]);
    return whole.reduce((sum, [[row]]) => sum + Number(row.n ?? 0), 0);
  }
  const afterFirstDay = nextDayStart(firstDay);
  const lastDayStart = `${lastDay} 00:00:00`;
  const rows = `SELECT COUNT(*) AS n FROM event_details d INNER JOIN posts p ON p.id = d.post_id
    WHERE d.hide_from_listings = 0 AND ${PUBLIC}`;
  const parts = await Promise.all([
    pool.execute<Rows>(`${rows} AND d.start_utc >= ? AND d.start_utc < ? AND d.end_utc <= ?`, [
      now,
      from,
      afterFirstDay,
      until,
    ]),
    pool.execute<Rows>(`${rows} AND d.end_utc >= ? AND d.end_utc <= ? AND d.start_utc >= ?`, [
      now,
      lastDayStart,
      until,
      afterFirstDay,
    ]),
    pool.execute<Rows>('SELECT SUM(listed) AS n FROM event_listing_days WHERE start_day > ? AND end_day < ?', [
      firstDay,
      lastDay,
    ]),
    pool.execute<Rows>(
      `SELECT COUNT(*) AS n FROM posts p INNER JOIN event_details d ON d.post_id = p.id
        WHERE p.status = 'future' AND p.date_utc <= ? AND d.hide_from_listings = 0 AND d.start_utc >= ? AND d.end_utc < ?`,
      [now, afterFirstDay, lastDayStart],
    ),
  ]);
  return parts.reduce((sum, [[row]]) => sum + Number(row.n ?? 0), 0);
}

export async function list(pool: Pool, url: URL, ctx: RequestContext): Promise<Answer> {
  const q = url.searchParams;
  const now = nowUtc();
  const result = resolveDateWindow(
    { start_date: q.get('start_date') ?? undefined, end_date: q.get('end_date') ?? undefined },
    ZONE,
    DateTime.utc(),
  );
  if (!result.ok) return [400, {}, { code: 'rest_invalid_param' }];
  const w = result.window;
  const page = resolvePageRequest(Number(q.get('page') ?? 1), Number(q.get('per_page') ?? 10), 50);
  const where =
    `p.type = 'cal_event' AND d.hide_from_listings = 0 AND ${PUBLIC}` +
    (w.startFrom ? ' AND d.start_utc >= ?' : '') +
    (w.endUntil ? ' AND d.end_utc <= ?' : '');
  const params = [now, ...(w.startFrom ? [w.startFrom] : []), ...(w.endUntil ? [w.endUntil] : [])];
  const total = w.startFrom && w.endUntil ? await totalByDay(pool, w.startFrom, w.endUntil, now) : await countRows();
  async function countRows(): Promise<number> {
    const [[count]] = await pool.execute<Rows>(
      `SELECT COUNT(*) AS n FROM posts p INNER JOIN event_details d ON d.post_id = p.id WHERE ${where}`,
      params,
    );
    return Number(count.n);
  }
  const [rows] = await pool.execute<Rows>(
    `SELECT ${POST_COLUMNS('p')}, ${EVENT_COLUMNS} FROM posts p INNER JOIN event_details d ON d.post_id = p.id
      WHERE ${where} ORDER BY d.start_utc, d.post_id LIMIT ${page.perPage} OFFSET ${page.offset}`,
    params,
  );
  const objects = await objectsOf(pool, rows, ctx, now);
  const response = buildListResponse({
    key: 'events',
    items: objects.map((o) => o.object),
    total,
    page,
    collectionUrl: `${ctx.namespaceUrl}/events`,
    query: { start_date: w.effective.start_date, end_date: w.effective.end_date },
  });
  return [200, response.headers, response.body];
}

export async function single(pool: Pool, id: number, ctx: RequestContext): Promise<Answer> {
  const now = nowUtc();
  const [rows] = await pool.execute<Rows>(
    `SELECT ${POST_COLUMNS('p')}, ${EVENT_COLUMNS} FROM posts p INNER JOIN event_details d ON d.post_id = p.id
      WHERE p.id = ? AND p.type = 'cal_event' AND ${PUBLIC} AND p.password_hash IS NULL`,
    [id, now],
  );
  if (rows.length === 0) return [404, {}, { code: 'rest_post_invalid_id' }];
  const [{ object, venue, organizer }] = await objectsOf(pool, rows, ctx, now);
  const jsonLd = toEventJsonLd(object, {
    location: venue.map(toPlaceJsonLd)[0],
    organizer: organizer.map(toPersonJsonLd),
  });
  return [200, {}, { ...object, json_ld: jsonLd }];
}

export function contextOf(req: IncomingMessage): RequestContext {
  const restBase = `http://${req.headers.host ?? 'localhost'}`;
  return {
    kind: 'request-context',
    user: null,
    language: 'en',
    restBase,
    siteUrl: restBase,
    namespaceUrl: `${restBase}/cal/events/v1`,
    dialect: 'cal',
    requestId: '',
    clientAddress: '',
  };
}
