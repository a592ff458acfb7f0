import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Clock } from '../../src/common/dates/clock';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';
import { EventSearchPlan } from '../../src/modules/events/archive/event-search-plan';
import {
  SEARCHABLE_EVENT_SELECT,
  searchableEventOf,
  searchRowsOf,
  type SearchableEventRow,
} from '../../src/modules/events/derived/event-search-rows';
import { archivePages } from '../support/archive-pages';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2030-03-01T12:00:00Z');
const YEAR = 'start_date=2030-03-01&end_date=2030-12-31';
const SPRING = 'start_date=2030-03-10&end_date=2030-04-15';
// Windows inside days: the first and last day are read from rows, the days between from the day counts;
// 'Open Air' (2030-06-01 14:00 to 06-03 23:00) ends on the last day of the first, after the end of the second.
const STRICT_WINDOWS = ['2030-06-03%2023:30:00', '2030-06-03%2022:00:00'].map(
  (until) => `start_date=2030-03-12%2020:00:00&end_date=${until}&strict_dates=true`,
);
const WORDS = [
  'jazz',
  'JAZZ',
  'ja',
  'jazzy',
  'cafe',
  'CAFÉ',
  'secret',
  'saxophone',
  'hidden',
  'festival',
  'zzz',
  'e-mail',
  '!!',
];

/**
 * `search=` through the events' word index: a word matches words it starts, case and accents aside, in the
 * title, or in the excerpt and description where the caller may read them. The public's one-word search in
 * a plain window is answered by the index alone (`EventSearchPlan`); it must list exactly what the row path
 * lists, after every kind of write.
 */
describe('event search', () => {
  let t: TestApp;
  /** The same database read without the word index or any other fast path (`READ_FAST_PATHS=false`). */
  let exact: TestApp;
  let editor: TestUser;
  const ids: Record<string, number> = {};
  let served: (boolean | undefined)[] = [];

  const titlesOf = (body: unknown) => (body as { events: { title: string }[] }).events.map((e) => e.title).sort();

  async function search(query: string, auth?: string): Promise<string[]> {
    const req = t.http.get(`${ns}/events?${YEAR}&per_page=50&${query}`);
    const res = await (auth ? req.set('Authorization', auth) : req);
    if (res.status === 404) return [];
    expect(res.status).toBe(200);
    return titlesOf(res.body);
  }

  /** Every page's ids and the total, 3 per page. */
  const pagesOf = (query: string) => archivePages(t, query, 3);

  /** The index path equals the row path (the same query on an instance without fast paths). */
  async function expectIndexMatchesRows(): Promise<void> {
    for (const window of [YEAR, SPRING, ...STRICT_WINDOWS]) {
      for (const word of WORDS) {
        const query = `${window}&search=${encodeURIComponent(word)}`;
        const fromIndex = await pagesOf(query);
        expect({ query, total: fromIndex.total }).toEqual({ query, total: fromIndex.ids.length });
        expect({ query, ids: fromIndex.ids }).toEqual({ query, ids: (await archivePages(exact, query, 3)).ids });
      }
    }
  }

  /** The stored index, and its day counts, equal ones rebuilt from the event rows. */
  async function expectIndexMatchesEvents(): Promise<void> {
    const events = await t.dataSource.query<SearchableEventRow[]>(
      `SELECT ${SEARCHABLE_EVENT_SELECT} FROM posts p INNER JOIN event_details d ON d.post_id = p.id`,
    );
    const key = (r: object) =>
      ['post_id', 'word', 'in_title', 'in_body', 'public_match', 'start_utc', 'end_utc']
        .map((c) => String((r as Record<string, unknown>)[c]))
        .join('|');
    const rebuilt = events.flatMap((row) => searchRowsOf(searchableEventOf(row))).map(key);
    const stored = (await t.dataSource.query<Record<string, unknown>[]>('SELECT * FROM event_search_words'))
      .map((r) => ({
        ...r,
        in_title: Number(r.in_title),
        in_body: Number(r.in_body),
        public_match: Number(r.public_match),
      }))
      .map(key);
    expect(stored.sort()).toEqual(rebuilt.sort());
    const recounted = new Map<string, number>();
    for (const row of events.flatMap((event) => searchRowsOf(searchableEventOf(event)))) {
      if (!row.public_match) continue;
      const day = `${row.word}|${row.start_utc.slice(0, 10)}|${row.end_utc.slice(0, 10)}`;
      recounted.set(day, (recounted.get(day) ?? 0) + 1);
    }
    const counted = await t.dataSource.query<{ word: string; start_day: string; end_day: string; matched: number }[]>(
      'SELECT word, start_day, end_day, matched FROM event_search_word_days WHERE matched <> 0',
    );
    expect(new Map(counted.map((c) => [`${c.word}|${c.start_day}|${c.end_day}`, Number(c.matched)]))).toEqual(
      recounted,
    );
  }

  beforeAll(async () => {
    // No response cache: every read below runs its queries (the index path is spied on).
    t = await createTestApp({ now: NOW, env: { RESPONSE_CACHE_MB: '0', FUTURE_POSTS_INTERVAL_SECONDS: '3600' } });
    // One clock for both: a test that moves "now" on `t` moves it for the exact reads too.
    exact = await createTestApp({
      clock: t.app.get(Clock),
      database: t.database,
      env: { RESPONSE_CACHE_MB: '0', FUTURE_POSTS_INTERVAL_SECONDS: '3600', READ_FAST_PATHS: 'false' },
    });
    editor = await createUser(t, 'editor');
    const add = async (name: string, fields: Record<string, unknown>) =>
      (ids[name] = (await postEvent(t, editor.auth, { title: name, ...fields })).id);
    await add('Jazz Night', {
      description: '<p>Smooth saxophone, <strong>loud</strong></p>',
      start_date: '2030-03-12 20:00:00',
    });
    await add('Jazzy Brunch', { start_date: '2030-03-15 11:00:00', end_date: '2030-03-15 13:00:00' });
    await add('Nujazz Session', { start_date: '2030-03-20 20:00:00', end_date: '2030-03-20 23:00:00' });
    await add('Café Concert', {
      description: 'Crème brûlée',
      start_date: '2030-04-02 18:00:00',
      end_date: '2030-04-02 20:00:00',
    });
    await add('Secret Gig', {
      password: 'pw',
      description: 'jazz, hidden away',
      start_date: '2030-04-10 20:00:00',
      end_date: '2030-04-10 23:00:00',
    });
    await add('Jazz Draft', { status: 'draft', start_date: '2030-03-18 20:00:00', end_date: '2030-03-18 22:00:00' });
    await add('Jazz Unlisted', {
      hide_from_listings: true,
      start_date: '2030-03-19 20:00:00',
      end_date: '2030-03-19 22:00:00',
    });
    await add('Open Air', {
      excerpt: 'An open-air jazz festival',
      start_date: '2030-06-01 14:00:00',
      end_date: '2030-06-03 23:00:00',
    });
    // Words a case- or accent-insensitive collation would call equal: the index compares bytes.
    await add('Straße Strasse Strase', { start_date: '2030-05-06 10:00:00', end_date: '2030-05-06 12:00:00' });
    await add('E-mail Workshop', { start_date: '2030-05-05 10:00:00', end_date: '2030-05-05 12:00:00' });
    for (let i = 0; i < 7; i++) {
      await add(`Jazz Series ${i}`, {
        start_date: `2030-0${3 + (i % 6)}-2${i} 19:00:00`,
        end_date: `2030-0${3 + (i % 6)}-2${i} 21:00:00`,
      });
    }
    const plan = t.app.get(EventSearchPlan);
    const page = plan.page.bind(plan);
    jest.spyOn(plan, 'page').mockImplementation(async (...args) => {
      const result = await page(...args);
      served.push(result !== undefined);
      return result;
    });
  });
  afterAll(async () => {
    await exact?.close();
    await t?.close();
  });

  it('matches words by their start, ignoring case and accents, never inside a word or in markup', async () => {
    const series = Array.from({ length: 7 }, (_, i) => `Jazz Series ${i}`);
    expect(await search('search=jazz')).toEqual(['Jazz Night', 'Jazzy Brunch', 'Open Air', ...series].sort());
    expect(await search('search=JAZZY')).toEqual(['Jazzy Brunch']);
    expect(await search('search=nujazz')).toEqual(['Nujazz Session']);
    expect(await search('search=azz')).toEqual([]);
    expect(await search('search=CAFÉ')).toEqual(['Café Concert']);
    expect(await search('search=cafe brulee')).toEqual(['Café Concert']);
    expect(await search('search=strong')).toEqual([]);
    expect(await search('search=saxophone')).toEqual(['Jazz Night']);
    expect(await search('search=festival')).toEqual(['Open Air']);
    expect(await search('search=straß')).toEqual(['Straße Strasse Strase']);
    expect(await search('search=strasse')).toEqual(['Straße Strasse Strase']);
  });

  it('keeps phrases and words joined by punctuation together, and ignores tokens without letters or digits', async () => {
    expect(await search('search=e-mail')).toEqual(['E-mail Workshop']);
    expect(await search('search=%22smooth saxophone%22')).toEqual(['Jazz Night']);
    expect(await search('search=%22saxophone smooth%22')).toEqual([]);
    expect(await search('search=!! brunch')).toEqual(['Jazzy Brunch']);
  });

  it('answers whatever clients send as a search with 200 or a clear 400, never a 500', async () => {
    for (const auth of [undefined, editor.auth]) {
      const get = (query: string) => {
        const req = t.http.get(`${ns}/events?${YEAR}&${query}`);
        return auth ? req.set('Authorization', auth) : req;
      };
      // A 200-letter word (the limit) is cut to the index's 64 and found by that start: nothing here.
      expect((await get(`search=${'x'.repeat(200)}`)).status).toBe(200);
      const tooLong = await get(`search=${'x'.repeat(201)}`);
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.code).toBe('rest_invalid_param');
      // Combining accents, as some keyboards send them, fold like precomposed ones.
      expect(titlesOf((await get(`search=${encodeURIComponent('Cafe\u0301')}`).expect(200)).body)).toEqual([
        'Café Concert',
      ]);
      // Emoji and LIKE's wildcards are no words: they match everything, or as written in a phrase.
      expect((await get(`search=${encodeURIComponent('🎷')}`).expect(200)).headers['x-tec-total']).toBe(
        (await get('per_page=1').expect(200)).headers['x-tec-total'],
      );
      // NUL is refused in every parameter (SQLite's C API would end the search text there).
      expect((await get('search=%00').expect(400)).body.code).toBe('rest_invalid_param');
      expect(titlesOf((await get('search=e_mail').expect(200)).body)).toEqual([]);
      expect(titlesOf((await get('search=%25 workshop').expect(200)).body)).toEqual(['E-mail Workshop']);
      // More than 20 tokens: the first 20 count.
      expect((await get(`search=${encodeURIComponent('jazz '.repeat(30))}`)).status).toBe(200);
      // A repeated parameter is a list, not a string.
      const repeated = await get('search=jazz&search=night');
      expect(repeated.status).toBe(400);
      expect(repeated.body.code).toBe('rest_invalid_param');
    }
  });

  it('searches a protected description only for callers who may read it, and drafts only for editors', async () => {
    expect(await search('search=secret')).toEqual(['Secret Gig']);
    expect(await search('search=hidden')).toEqual([]);
    expect(await search('search=hidden', editor.auth)).toEqual(['Secret Gig']);
    expect(await search('search=jazz', editor.auth)).toContain('Secret Gig');
    expect(await search('search=draft')).toEqual([]);
    expect(await search('search=draft&status=draft', editor.auth)).toEqual(['Jazz Draft']);
    expect(await search('search=unlisted', editor.auth)).toEqual([]);
  });

  it('answers the public one-word search from the index, page by page equal to the row path', async () => {
    served = [];
    await expectIndexMatchesRows();
    // The index answered every single-word query of the public (each at least one page, twice).
    expect(served).not.toContain(false);
    expect(served.length).toBeGreaterThanOrEqual(4 * 10);
    await expectIndexMatchesEvents();
  });

  it('follows renames, new descriptions, passwords, moved dates, hiding, trash, restore and deletion', async () => {
    const edit = (name: string, body: Record<string, unknown>) =>
      t.http.post(`${ns}/events/${ids[name]}`).set('Authorization', editor.auth).send(body).expect(200);
    await edit('Jazzy Brunch', { title: 'Sunday Brunch' });
    expect(await search('search=jazzy')).toEqual([]);
    expect(await search('search=sunday')).toEqual(['Sunday Brunch']);
    await edit('Café Concert', { description: '<p>Now with jazz</p>' });
    expect(await search('search=creme')).toEqual([]);
    expect(await search('search=jazz')).toContain('Café Concert');
    await edit('Jazz Night', { password: 'pw' });
    expect(await search('search=saxophone')).toEqual([]);
    expect(await search('search=saxophone', editor.auth)).toEqual(['Jazz Night']);
    await edit('Secret Gig', { password: '' });
    expect(await search('search=hidden')).toEqual(['Secret Gig']);
    await edit('Jazz Series 0', { start_date: '2031-01-05 19:00:00', end_date: '2031-01-05 21:00:00' });
    await edit('Jazz Series 1', { hide_from_listings: true });
    await edit('Jazz Unlisted', { hide_from_listings: false });
    await edit('Jazz Draft', { status: 'publish' });
    await expectIndexMatchesRows();
    await t.http.delete(`${ns}/events/${ids['Jazz Series 2']}`).set('Authorization', editor.auth).expect(200);
    expect(await search('search=series')).not.toContain('Jazz Series 2');
    await expectIndexMatchesRows();
    await edit('Jazz Series 2', { status: 'publish' });
    expect(await search('search=series')).toContain('Jazz Series 2');
    await t.http
      .delete(`${ns}/events/${ids['Jazz Series 3']}?force=true`)
      .set('Authorization', editor.auth)
      .expect(200);
    await expectIndexMatchesRows();
    await expectIndexMatchesEvents();
  });

  it('finds a scheduled event from the moment it falls due, before and after the publisher flips it', async () => {
    const gig = await postEvent(t, editor.auth, {
      title: 'Scheduled jazz',
      status: 'future',
      date_utc: '2030-03-01 12:00:30',
      start_date: '2030-03-25 19:00:00',
      end_date: '2030-03-25 23:00:00',
    });
    expect(await search('search=scheduled')).toEqual([]);
    t.app.get(Clock).now = () => new Date('2030-03-01T12:00:31Z');
    try {
      expect(await search('search=scheduled')).toEqual(['Scheduled jazz']);
      await expectIndexMatchesRows();
      expect(await t.app.get(FuturePostsPublisher).publishDue()).toEqual([gig.id]);
      expect(await search('search=scheduled')).toEqual(['Scheduled jazz']);
      await expectIndexMatchesRows();
      await expectIndexMatchesEvents();
    } finally {
      t.app.get(Clock).now = () => new Date(NOW);
    }
  });

  it('indexes concurrent creates and a description of thousands of words', async () => {
    const before = (await pagesOf(`${YEAR}&search=rush`)).total;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postEvent(t, editor.auth, {
          title: `Rush ${i}`,
          start_date: '2030-07-01 19:00:00',
          end_date: '2030-07-01 21:00:00',
        }),
      ),
    );
    expect((await pagesOf(`${YEAR}&search=rush`)).total).toBe(before + 8);
    // Concurrent edits of events sharing words and days: the same counter rows, taken in different orders
    // by what each edit adds and removes.
    const rush = (await pagesOf(`${YEAR}&search=rush`)).ids.slice(0, 8);
    await Promise.all(
      rush.map((id, i) =>
        t.http
          .post(`${ns}/events/${id}`)
          .set('Authorization', editor.auth)
          .send({
            description: `<p>${['brass', 'choir', 'strings', 'organ'].slice(i % 4).join(' ')} tonight</p>`,
            ...(i % 2 === 0 ? { start_date: '2030-07-02 19:00:00', end_date: '2030-07-02 21:00:00' } : {}),
          })
          .expect(200),
      ),
    );
    await expectIndexMatchesEvents();
    expect((await pagesOf(`${YEAR}&search=tonight`)).total).toBe(8);
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}x`);
    await postEvent(t, editor.auth, {
      title: 'Long read',
      description: `<p>${words.join(' ')}</p>`,
      start_date: '2030-07-02 19:00:00',
      end_date: '2030-07-02 21:00:00',
    });
    expect(await search('search=w2999x')).toEqual(['Long read']);
    expect(await search('search=w0x')).toEqual(['Long read']);
    await expectIndexMatchesEvents();
  });
});
