import { PostEntity } from '../../src/core/posts/post.entity';
import type { PostStatus } from '../../src/core/posts/post-status';
import { PostTypeRegistry } from '../../src/core/posts/post-type.registry';
import type { TestApp } from './create-test-app';

let counter = 0;

/**
 * The post type of bare test posts: registered like any module's, carrying the calendar's taxonomies (and,
 * when registered, every module taxonomy: see `insertPost`).
 */
const TEST_POST_TYPE = {
  type: 'cal_test',
  noun: 'test',
  label: { en: 'test post', de: 'Testbeitrag' },
  taxonomies: ['cal_events_cat', 'post_tag'],
};

/**
 * A bare post row, for tests of the base that need posts before any post-type route exists.
 * Resource tests create their records through the API instead.
 */
export async function insertPost(
  t: TestApp,
  fields: { type?: string; status?: PostStatus; authorId?: number | null; dateUtc?: string; title?: string } = {},
): Promise<PostEntity> {
  const n = ++counter;
  const date = fields.dateUtc ?? '2025-01-01 10:00:00';
  const registry = t.app.get(PostTypeRegistry);
  if (!registry.has(TEST_POST_TYPE.type)) {
    registry.register(TEST_POST_TYPE);
    // Whatever modules added to events, test posts carry too (a module taxonomy's suite counts them).
    for (const taxonomy of registry.taxonomiesOf('cal_event')) registry.carry(TEST_POST_TYPE.type, taxonomy);
  }
  return t.dataSource.getRepository(PostEntity).save({
    type: fields.type ?? 'cal_test',
    slug: `test-post-${n}`,
    title: fields.title ?? `Test post ${n}`,
    content: '',
    excerpt: '',
    status: fields.status ?? 'publish',
    authorId: fields.authorId ?? null,
    parentId: null,
    passwordHash: null,
    menuOrder: 0,
    dateLocal: date,
    dateUtc: date,
    modifiedLocal: date,
    modifiedUtc: date,
  });
}

/**
 * A bare event (post + event_details + links), for venue and organizer filters before the events
 * routes exist. Event tests create events through the API.
 */
export async function insertEvent(
  t: TestApp,
  fields: {
    status?: PostStatus;
    startUtc: string;
    endUtc?: string;
    venueIds?: number[];
    organizerIds?: number[];
    /** Links through any declared link table. */
    links?: { table: string; column: string; ids: number[] }[];
    authorId?: number | null;
  },
): Promise<number> {
  const post = await insertPost(t, { type: 'cal_event', status: fields.status, authorId: fields.authorId });
  const end = fields.endUtc ?? fields.startUtc;
  await t.dataSource.query(
    `INSERT INTO event_details (post_id, start_local, end_local, start_utc, end_utc, timezone, cost) VALUES (?, ?, ?, ?, ?, 'UTC', '')`,
    [post.id, fields.startUtc, end, fields.startUtc, end],
  );
  const links = [
    { table: 'event_venues', column: 'venue_id', ids: fields.venueIds ?? [] },
    { table: 'event_organizers', column: 'organizer_id', ids: fields.organizerIds ?? [] },
    ...(fields.links ?? []),
  ];
  for (const { table, column, ids } of links) {
    for (const [i, id] of ids.entries()) {
      await t.dataSource.query(`INSERT INTO ${table} (event_id, ${column}, sort_order) VALUES (?, ?, ?)`, [
        post.id,
        id,
        i,
      ]);
    }
  }
  return post.id;
}
