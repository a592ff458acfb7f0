import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock } from '../../src/common/dates/clock';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';
import { archivePages } from '../support/archive-pages';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2030-03-01T12:00:00Z');

/**
 * Windows of every shape: whole days in the site zone (not UTC days), strict times inside days, one day,
 * none, and strict windows that are whole UTC days (Berlin is UTC+1 in March), which take their totals and
 * the start of each page from the day counts alone.
 */
const WINDOWS = [
  '',
  'start_date=2030-03-01&end_date=2030-12-31',
  'start_date=2030-03-10&end_date=2030-03-20',
  'start_date=2030-03-14&end_date=2030-03-14',
  'start_date=2030-03-13 23:30:00&end_date=2030-03-16 00:30:00&strict_dates=true',
  'start_date=2030-03-12 12:00:00&end_date=2030-04-02 06:00:00&strict_dates=true',
  'start_date=2030-03-15 00:00:00&end_date=2030-03-15 00:00:00&strict_dates=true',
  'start_date=2030-04-01&end_date=2030-03-01',
  'start_date=2030-03-01 01:00:00&end_date=2030-03-26 00:59:59&strict_dates=true',
  'start_date=2030-03-14 01:00:00&end_date=2030-03-16 00:59:59&strict_dates=true',
];
const ALIGNED = WINDOWS.slice(-2);
/** Term filters: one category or tag over whole UTC days is served by the per-term day counts. */
const TERM_FILTERS = ['categories=jazz', 'categories=opera', 'tags=outdoor', 'categories=jazz,opera'];
const FILTERED = [...WINDOWS.slice(1, 3), ...ALIGNED].flatMap((window) => TERM_FILTERS.map((f) => `${window}&${f}`));

/**
 * The archive total of a plain public window comes from per-day counts kept on write, not from a count
 * over the window's rows: it must equal, after every kind of write, the number of events the pages list.
 * Site zone Berlin, so the window's day edges are not UTC midnights and the partial days are exercised.
 */
describe('archive totals from per-day listing counts', () => {
  let t: TestApp;
  /** The same database read without day counts or any other fast path (`READ_FAST_PATHS=false`). */
  let exact: TestApp;
  let editor: TestUser;
  const ids: number[] = [];

  /** The total the first page reports, and the ids all pages list together, page by page (7 per page). */
  const pagesOf = (query: string) => archivePages(t, query, 7);

  async function totalAndListed(window: string): Promise<{ total: number; listed: number }> {
    const { total, ids } = await pagesOf(window);
    return { total, listed: ids.length };
  }

  /**
   * Totals equal what the pages list, and every page equals the page of a query the day counts cannot serve
   * (the same query on an instance without fast paths, which counts rows).
   */
  async function expectTotalsMatchPages(): Promise<void> {
    for (const query of [...WINDOWS, ...FILTERED]) {
      const served = await pagesOf(query);
      expect({ query, total: served.total }).toEqual({ query, total: served.ids.length });
      expect({ query, ids: served.ids }).toEqual({ query, ids: (await archivePages(exact, query, 7)).ids });
    }
  }

  beforeAll(async () => {
    t = await createTestApp({
      now: NOW,
      env: { SITE_TIMEZONE: 'Europe/Berlin', FUTURE_POSTS_INTERVAL_SECONDS: '3600' },
    });
    // One clock for both: a test that moves "now" on `t` moves it for the exact reads too.
    exact = await createTestApp({
      clock: t.app.get(Clock),
      database: t.database,
      env: {
        SITE_TIMEZONE: 'Europe/Berlin',
        FUTURE_POSTS_INTERVAL_SECONDS: '3600',
        READ_FAST_PATHS: 'false',
        RESPONSE_CACHE_MB: '0',
      },
    });
    editor = await createUser(t, 'editor');
    const starts = ['00:00:00', '00:30:00', '12:00:00', '23:00:00', '23:30:00'];
    const lengthsInHours = [0, 1, 2, 25, 24 * 3 + 1, 24 * 20];
    for (let i = 0; i < 30; i++) {
      const day = 10 + (i % 9);
      const start = new Date(`2030-03-${String(day).padStart(2, '0')}T${starts[i % starts.length]}Z`);
      const end = new Date(start.getTime() + lengthsInHours[i % lengthsInHours.length] * 3_600_000);
      const wall = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
      const event = await postEvent(t, editor.auth, {
        title: `Span ${i}`,
        start_date: wall(start),
        end_date: wall(end),
        ...(i % 7 === 3 ? { hide_from_listings: true } : {}),
        ...(i % 11 === 5 ? { status: 'draft' } : {}),
        ...(i % 13 === 6 ? { password: 'secret' } : {}),
        ...(i % 10 === 9 ? { timezone: 'America/New_York' } : {}),
        categories: [['Jazz'], ['Opera'], ['Jazz', 'Opera'], []][i % 4],
        tags: i % 3 === 0 ? ['Outdoor'] : [],
      });
      ids.push(event.id);
    }
  });
  afterAll(async () => {
    await exact?.close();
    await t?.close();
  });

  it('equals the listed events for every window shape', async () => {
    await expectTotalsMatchPages();
    const { total } = await totalAndListed(WINDOWS[1]);
    // Drafts and hidden events are not listed; the password-protected one is (with blanked fields).
    expect(total).toBe(30 - 5 - 2);
  });

  it('follows moved dates, hiding, unhiding, drafts, trash, restore and deletion', async () => {
    const edit = (id: number, body: Record<string, unknown>) =>
      t.http.post(`${ns}/events/${id}`).set('Authorization', editor.auth).send(body).expect(200);
    await edit(ids[0], { start_date: '2030-03-14 23:30:00', end_date: '2030-03-16 00:15:00' });
    await expectTotalsMatchPages();
    await edit(ids[1], { hide_from_listings: true });
    await edit(ids[3], { hide_from_listings: false });
    await expectTotalsMatchPages();
    await edit(ids[2], { status: 'draft' });
    await edit(ids[5], { status: 'publish' });
    await expectTotalsMatchPages();
    await t.http.delete(`${ns}/events/${ids[4]}`).set('Authorization', editor.auth).expect(200);
    await expectTotalsMatchPages();
    await edit(ids[4], { status: 'publish' });
    await expectTotalsMatchPages();
    await t.http.delete(`${ns}/events/${ids[6]}?force=true`).set('Authorization', editor.auth).expect(200);
    await t.http.delete(`${ns}/events/${ids[7]}`).set('Authorization', editor.auth).expect(200);
    await t.http.delete(`${ns}/events/${ids[7]}?force=true`).set('Authorization', editor.auth).expect(200);
    await expectTotalsMatchPages();
  });

  it('follows term changes, passwords set and removed, and a deleted category', async () => {
    const edit = (id: number, body: Record<string, unknown>) =>
      t.http.post(`${ns}/events/${id}`).set('Authorization', editor.auth).send(body).expect(200);
    await edit(ids[8], { categories: ['Opera'], tags: [] });
    await edit(ids[9], { categories: ['Jazz', 'Opera'], tags: ['Outdoor'] });
    await edit(ids[10], { categories: [] });
    await expectTotalsMatchPages();
    await edit(ids[12], { password: 'secret' });
    await edit(ids[6 + 13], { password: '' });
    await expectTotalsMatchPages();
    const doomed = await t.http
      .post(`${ns}/categories`)
      .set('Authorization', editor.auth)
      .send({ name: 'Doomed' })
      .expect(201);
    await edit(ids[11], {
      categories: ['Jazz', 'Doomed'],
      start_date: '2030-03-15 10:00:00',
      end_date: '2030-03-15 11:00:00',
    });
    await t.http
      .delete(`${ns}/categories/${(doomed.body as { id: number }).id}?force=true`)
      .set('Authorization', editor.auth)
      .expect(200);
    await edit(ids[11], { start_date: '2030-03-16 10:00:00', end_date: '2030-03-16 11:00:00' });
    await expectTotalsMatchPages();
  });

  it('follows a category moved under another: the parent filter includes it, served answers follow', async () => {
    const all = (await t.http.get(`${ns}/categories?per_page=100`).expect(200)).body as {
      categories: { id: number; slug: string }[];
    };
    const category = (slug: string) => all.categories.find((c) => c.slug === slug)!.id;
    const [jazz, opera] = [category('jazz'), category('opera')];
    const before = await pagesOf(`${WINDOWS[1]}&categories=jazz`);
    const operaOnly = await pagesOf(`${WINDOWS[1]}&categories=opera`);
    await t.http.post(`${ns}/categories/${opera}`).set('Authorization', editor.auth).send({ parent: jazz }).expect(200);
    const after = await pagesOf(`${WINDOWS[1]}&categories=jazz`);
    expect(after.ids.length).toBeGreaterThan(before.ids.length);
    expect(new Set(after.ids)).toEqual(new Set([...before.ids, ...operaOnly.ids]));
    await expectTotalsMatchPages();
    await t.http.post(`${ns}/categories/${opera}`).set('Authorization', editor.auth).send({ parent: 0 }).expect(200);
    expect((await pagesOf(`${WINDOWS[1]}&categories=jazz`)).ids).toEqual(before.ids);
    await expectTotalsMatchPages();
  });

  it('counts a scheduled event from the moment it falls due, before and after the publisher flips it', async () => {
    const gala = await postEvent(t, editor.auth, {
      title: 'Scheduled gala',
      status: 'future',
      date_utc: '2030-03-01 12:00:30',
      start_date: '2030-03-15 19:00:00',
      end_date: '2030-03-15 23:00:00',
    });
    expect(gala.status).toBe('future');
    const before = await totalAndListed(WINDOWS[2]);
    t.app.get(Clock).now = () => new Date('2030-03-01T12:00:31Z');
    try {
      const due = await totalAndListed(WINDOWS[2]);
      expect(due).toEqual({ total: before.total + 1, listed: before.listed + 1 });
      // Due but not flipped: in no day count, so whole-day windows count it from rows and do not seek.
      await expectTotalsMatchPages();
      expect(await t.app.get(FuturePostsPublisher).publishDue()).toEqual([gala.id]);
      expect(await totalAndListed(WINDOWS[2])).toEqual(due);
      await expectTotalsMatchPages();
    } finally {
      t.app.get(Clock).now = () => new Date(NOW);
    }
  });

  it('counts concurrent creates that open the same new day (and its per-term buckets) exactly', async () => {
    const before = await totalAndListed(WINDOWS[1]);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postEvent(t, editor.auth, {
          title: `Rush ${i}`,
          start_date: '2030-06-25 19:00:00',
          end_date: '2030-06-25 21:00:00',
          // New per-term buckets too, opened by several writers at once.
          categories: ['Jazz'],
          tags: i % 2 === 0 ? ['Outdoor'] : [],
        }),
      ),
    );
    expect(await totalAndListed(WINDOWS[1])).toEqual({ total: before.total + 8, listed: before.listed + 8 });
    await expectTotalsMatchPages();
  });

  it('keeps the per-day counts equal to a recount from the rows', async () => {
    const days = await t.dataSource.query<{ start_day: string; end_day: string; listed: number }[]>(
      'SELECT start_day, end_day, listed FROM event_listing_days WHERE listed <> 0 ORDER BY start_day, end_day',
    );
    const recount = await t.dataSource.query<{ start_day: string; end_day: string; listed: number }[]>(
      `SELECT SUBSTR(d.start_utc, 1, 10) AS start_day, SUBSTR(d.end_utc, 1, 10) AS end_day, COUNT(*) AS listed
         FROM event_details d INNER JOIN posts p ON p.id = d.post_id
        WHERE p.status = 'publish' AND d.hide_from_listings = 0
        GROUP BY SUBSTR(d.start_utc, 1, 10), SUBSTR(d.end_utc, 1, 10) ORDER BY start_day, end_day`,
    );
    const plain = (rows: { start_day: string; end_day: string; listed: number }[]) =>
      rows.map((r) => [r.start_day, r.end_day, Number(r.listed)]);
    expect(plain(days)).toEqual(plain(recount));
    expect(days.length).toBeGreaterThan(5);

    type TermDay = { term_id: number; start_day: string; end_day: string; listed: number };
    const termDays = await t.dataSource.query<TermDay[]>(
      `SELECT term_id, start_day, end_day, listed FROM event_term_listing_days WHERE listed <> 0
        ORDER BY term_id, start_day, end_day`,
    );
    const termRecount = await t.dataSource.query<TermDay[]>(
      `SELECT tr.term_id, SUBSTR(d.start_utc, 1, 10) AS start_day, SUBSTR(d.end_utc, 1, 10) AS end_day, COUNT(*) AS listed
         FROM event_details d INNER JOIN posts p ON p.id = d.post_id INNER JOIN term_relationships tr ON tr.post_id = p.id
        WHERE p.status = 'publish' AND d.hide_from_listings = 0 AND p.password_hash IS NULL
        GROUP BY tr.term_id, SUBSTR(d.start_utc, 1, 10), SUBSTR(d.end_utc, 1, 10) ORDER BY term_id, start_day, end_day`,
    );
    const plainTerms = (rows: TermDay[]) =>
      rows.map((r) => [Number(r.term_id), r.start_day, r.end_day, Number(r.listed)]);
    expect(plainTerms(termDays)).toEqual(plainTerms(termRecount));
    expect(new Set(termDays.map((r) => Number(r.term_id))).size).toBe(3);
  });
});
