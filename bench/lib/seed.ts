import { DataSource, TableIndex, type EntityManager } from 'typeorm';
import type { Progress } from '../../src/common/progress/progress';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { FILL_LISTING_COUNTS } from '../../src/database/migrations/1764200000000-add-event-listing-days';
import { FILL_TERM_LISTING_COUNTS } from '../../src/database/migrations/1764300000000-add-event-term-listing-days';
import { SEARCH_WORDS_INDEX } from '../../src/database/migrations/1764400000000-add-event-search-words';
import { FILL_SEARCH_WORD_DAYS } from '../../src/database/migrations/1764900000000-add-event-search-word-days';
import { FILL_EVENT_DOCUMENT_ROWS } from '../../src/database/migrations/1765000000000-add-event-documents';
import { SEARCH_WORDS_STORE, searchRowsOf } from '../../src/modules/events/derived/event-search-rows';
import { recordFilled, storeVersion } from '../../src/database/derived-stores';

export interface SeedOptions {
  databaseUrl: string;
  events: number;
  /** Progress lines go here. */
  log?: (line: string) => void;
  /** Events seeded so far, after each batch (a progress bar on a terminal, lines elsewhere). */
  progress?: Progress;
}

const CHUNK = 400;
const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` for a day offset from 2030-01-01 and an hour. */
function at(dayOffset: number, hour: number): string {
  const d = new Date(Date.UTC(2030, 0, 1 + dayOffset, hour));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:00:00`;
}

/** Multi-row INSERTs with bound values (`?` works on both drivers; booleans as 1/0 for SQLite). */
async function insertRows(manager: EntityManager, table: string, records: object[]): Promise<void> {
  const rows = records as Record<string, unknown>[];
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const placeholders = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    const values = chunk.flatMap((row) =>
      columns.map((c) => (typeof row[c] === 'boolean' ? (row[c] ? 1 : 0) : row[c])),
    );
    await manager.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${placeholders}`, values);
  }
}

async function insertPosts(
  manager: EntityManager,
  type: string,
  count: number,
  firstId: number,
  title: (i: number) => string,
) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    type,
    slug: `${type}-${firstId + i}`,
    title: title(i),
    content: `<p>${title(i)}: a seeded record for load tests.</p>`,
    excerpt: '',
    status: 'publish',
    author_id: null,
    parent_id: null,
    password_hash: null,
    featured_image_id: null,
    menu_order: 0,
    date_local: '2029-12-01 00:00:00',
    date_utc: '2029-12-01 00:00:00',
    modified_local: '2029-12-01 00:00:00',
    modified_utc: '2029-12-01 00:00:00',
  }));
  await insertRows(manager, 'posts', rows);
}

/**
 * Fills an empty database with `events` events spread over four years from 2030-01-01, each with a
 * venue, two organizers, a category and two tags from shared pools, through plain multi-row inserts
 * (the API would take hours for 100,000). Term counts and per-day listing counts are computed at the end.
 */
export async function seed(options: SeedOptions): Promise<{ firstEventId: number; categorySlugs: string[] }> {
  const log = options.log ?? (() => undefined);
  const dataSource = new DataSource(buildDataSourceOptions({ url: options.databaseUrl }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'all' });
    const [{ n }] = await dataSource.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM posts');
    if (Number(n) > 0) {
      // Else the first insert fails on a duplicate id and prints the whole multi-row INSERT.
      throw new Error(`${options.databaseUrl} holds ${n} posts already: the benches seed an empty database`);
    }
    // As the migration fills it: rows first, the word index built once after them.
    const schema = dataSource.createQueryRunner();
    await schema.dropIndex('event_search_words', SEARCH_WORDS_INDEX.name);
    const venues = Math.max(10, Math.floor(options.events / 20));
    const organizers = Math.max(10, Math.floor(options.events / 20));
    const firstVenue = 1;
    const firstOrganizer = firstVenue + venues;
    const firstEvent = firstOrganizer + organizers;
    const categories = Array.from({ length: 20 }, (_, i) => `category-${i + 1}`);
    const tags = Array.from({ length: 50 }, (_, i) => `tag-${i + 1}`);
    await dataSource.transaction(async (m) => {
      await insertPosts(m, 'cal_venue', venues, firstVenue, (i) => `Venue ${i + 1}`);
      await insertRows(
        m,
        'venue_details',
        Array.from({ length: venues }, (_, i) => ({ post_id: firstVenue + i, city: `City ${i % 100}` })),
      );
      await insertPosts(m, 'cal_organizer', organizers, firstOrganizer, (i) => `Organizer ${i + 1}`);
      await insertRows(
        m,
        'organizer_details',
        Array.from({ length: organizers }, (_, i) => ({ post_id: firstOrganizer + i, email: `o${i}@example.org` })),
      );
      const terms = [
        ...categories.map((slug, i) => ({
          id: i + 1,
          taxonomy: 'cal_events_cat',
          name: `Category ${i + 1}`,
          slug,
          description: '',
          parent_id: null,
          count: 0,
        })),
        ...tags.map((slug, i) => ({
          id: categories.length + i + 1,
          taxonomy: 'post_tag',
          name: `Tag ${i + 1}`,
          slug,
          description: '',
          parent_id: null,
          count: 0,
        })),
      ];
      await insertRows(m, 'terms', terms);
    });
    log(`seeded ${venues} venues, ${organizers} organizers, ${categories.length} categories, ${tags.length} tags`);

    const batch = 5000;
    for (let start = 0; start < options.events; start += batch) {
      const count = Math.min(batch, options.events - start);
      await dataSource.transaction(async (m) => {
        await insertPosts(
          m,
          'cal_event',
          count,
          firstEvent + start,
          (i) => `Event ${start + i + 1} ${i % 7 === 0 ? 'jazz' : 'concert'}`,
        );
        const details = [];
        const searchWords = [];
        const venueLinks = [];
        const organizerLinks = [];
        const relationships = [];
        for (let i = 0; i < count; i++) {
          const n = start + i;
          const id = firstEvent + n;
          const day = n % 1460;
          details.push({
            post_id: id,
            start_local: at(day, 18 + (n % 4)),
            end_local: at(day, 22),
            start_utc: at(day, 18 + (n % 4)),
            end_utc: at(day, 22),
            timezone: 'UTC',
            all_day: false,
            cost: `${5 + (n % 30)}`,
            currency_symbol: '$',
            currency_code: 'USD',
            currency_position: 'prefix',
            featured: n % 10 === 0,
          });
          // The word index as the service writes it (the title and description `insertPosts` gave).
          const title = `Event ${n + 1} ${i % 7 === 0 ? 'jazz' : 'concert'}`;
          searchWords.push(
            ...searchRowsOf({
              id,
              title,
              excerpt: '',
              content: `<p>${title}: a seeded record for load tests.</p>`,
              status: 'publish',
              hidden: false,
              hasPassword: false,
              startUtc: at(day, 18 + (n % 4)),
              endUtc: at(day, 22),
            }),
          );
          venueLinks.push({ event_id: id, venue_id: firstVenue + (n % venues), sort_order: 0 });
          organizerLinks.push({ event_id: id, organizer_id: firstOrganizer + (n % organizers), sort_order: 0 });
          organizerLinks.push({ event_id: id, organizer_id: firstOrganizer + ((n + 7) % organizers), sort_order: 1 });
          relationships.push({ post_id: id, term_id: 1 + (n % categories.length), term_order: 0 });
          relationships.push({ post_id: id, term_id: categories.length + 1 + (n % tags.length), term_order: 1 });
          relationships.push({ post_id: id, term_id: categories.length + 1 + ((n + 11) % tags.length), term_order: 2 });
        }
        await insertRows(m, 'event_details', details);
        await insertRows(m, 'event_search_words', searchWords);
        await insertRows(m, 'event_venues', venueLinks);
        await insertRows(m, 'event_organizers', organizerLinks);
        await insertRows(m, 'term_relationships', relationships);
      });
      if (options.progress) options.progress.advance(count);
      else log(`seeded ${start + count} / ${options.events} events`);
    }
    await dataSource.query(
      "UPDATE terms SET count = (SELECT COUNT(*) FROM term_relationships tr INNER JOIN posts p ON p.id = tr.post_id WHERE tr.term_id = terms.id AND p.status = 'publish')",
    );
    // What the service keeps on write, as the migration that introduced it computes it.
    for (const statement of [...FILL_LISTING_COUNTS, ...FILL_TERM_LISTING_COUNTS]) await dataSource.query(statement);
    await schema.createIndex('event_search_words', new TableIndex(SEARCH_WORDS_INDEX));
    await dataSource.query(FILL_SEARCH_WORD_DAYS);
    await dataSource.query(FILL_EVENT_DOCUMENT_ROWS);
    // The word index was derived above with the service's code: a start must not fill it again.
    await recordFilled(dataSource, { name: SEARCH_WORDS_STORE.name, version: storeVersion() });
    await schema.release();
    return { firstEventId: firstEvent, categorySlugs: categories };
  } finally {
    await dataSource.destroy();
  }
}
