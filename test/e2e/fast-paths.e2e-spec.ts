import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DIALECTS } from '../../src/common/http/request-context';
import { EventDocuments } from '../../src/modules/events/derived/documents/event-documents.service';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { declaredListSamples } from '../support/declared-samples';
import { documentsSettled } from '../support/statements';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
/** The TEC alias, whose documents are bodies of their own. */
const TEC = '/wp-json/tribe/events/v1';
const NOW = new Date('2030-03-01T12:00:00Z');
const HOST = 'calendar.test';

/**
 * Values only this test's data gives meaning to (its dates in March 2030, the words of its titles, pages),
 * beside what the declarations give. A module's filter needs nothing here (test/support/declared-samples.ts).
 */
const DATA_SAMPLES: Record<string, string[]> = {
  page: ['2'],
  per_page: ['3'],
  start_date: ['2030-03-05', '2030-03-05 12:00:00'],
  end_date: ['2030-03-20', '2030-03-20 18:00:00'],
  starts_before: ['2030-03-15 00:00:00'],
  starts_after: ['2030-03-10 00:00:00'],
  ends_before: ['2030-03-18 00:00:00'],
  ends_after: ['2030-03-08 00:00:00'],
  search: ['jazz', 'opera night', 'quiet', 'zzzz'],
  categories: ['music', 'jazz', 'music,opera'],
  tags: ['outdoor', 'outdoor,free'],
  geoloc_lat: ['52.52'],
  geoloc_lng: ['13.40'],
  modified_after: ['2000-01-01 00:00:00', '2100-01-01 00:00:00'],
};

/**
 * The fast paths (day counts, word index, listing-index skip, reused totals, shaped queries, stored
 * documents) against the exact query: two instances on one database, one with `READ_FAST_PATHS=false`.
 * Every declared filter alone and in the combinations the fast paths take (whole days, one term, one
 * word), as an anonymous caller and as an administrator: every page byte for byte, and the totals.
 */
describe('fast paths equal the exact query', () => {
  let fast: TestApp;
  let exact: TestApp;
  let admin: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // Global ids on a host of their own, apart from the links' (SiteIdentity): the stored documents fill both in.
    const env = {
      SITE_TIMEZONE: 'Europe/Berlin',
      GEO_ENABLED: 'true',
      RESPONSE_CACHE_MB: '0',
      PUBLIC_URL: 'https://cal.example.org',
      GLOBAL_ID_HOST: 'ids.example.org',
    };
    const modules = await registeredModules();
    fast = await createTestApp({ now: NOW, env, modules });
    exact = await createTestApp({
      now: NOW,
      database: fast.database,
      env: { ...env, READ_FAST_PATHS: 'false' },
      modules,
    });
    admin = await createUser(fast, 'administrator');
    const post = (path: string, body: Record<string, unknown>) =>
      fast.http.post(`${ns}/${path}`).set('Authorization', admin.auth).send(body).expect(201);
    const music = (await post('categories', { name: 'Music' })).body as { id: number };
    await post('categories', { name: 'Jazz', parent: music.id });
    ids.opera = ((await post('categories', { name: 'Opera' })).body as { id: number }).id;
    ids.venue = (
      (await post('venues', { venue: 'Hall', city: 'Berlin', geo_lat: 52.52, geo_lng: 13.4 })).body as { id: number }
    ).id;
    await post('venues', { venue: 'Far Hall', city: 'Munich', geo_lat: 48.14, geo_lng: 11.58 });
    ids.organizer = ((await post('organizers', { organizer: 'Crew' })).body as { id: number }).id;
    ids.speaker = ((await post('speakers', { speaker: 'Ada' })).body as { id: number }).id;
    const titles = ['Jazz brunch', 'Opera night', 'Quiet reading', 'Jazz and opera', 'Open air'];
    const starts = ['09:00:00', '00:30:00', '23:30:00', '12:00:00'];
    for (let i = 0; i < 26; i++) {
      const day = String(3 + (i % 20)).padStart(2, '0');
      const event = await postEvent(fast, admin.auth, {
        title: `${titles[i % titles.length]} ${i}`,
        description: i % 3 === 0 ? 'Bring a blanket for the jazz' : 'Indoors',
        start_date: `2030-03-${day} ${starts[i % starts.length]}`,
        end_date: `2030-03-${String(Number(day) + (i % 4 === 0 ? 2 : 0)).padStart(2, '0')} 23:45:00`,
        all_day: i % 9 === 4,
        featured: i % 5 === 0,
        categories: [['Jazz'], ['Opera'], ['Music'], [], ['Jazz', 'Opera']][i % 5],
        tags: i % 2 === 0 ? ['outdoor'] : i % 3 === 0 ? ['free'] : [],
        ...(i % 4 === 1 ? { venue: ids.venue } : i % 4 === 2 ? { venue: { venue: 'Far Hall' } } : {}),
        ...(i % 3 === 1 ? { organizer: [ids.organizer] } : {}),
        ...(i % 5 === 2 ? { speaker: [ids.speaker] } : {}),
        ...(i % 4 === 3 ? { audiences: ['Kids'] } : i % 6 === 1 ? { audiences: ['Adults', 'Kids'] } : {}),
        ...(i % 7 === 3 ? { hide_from_listings: true } : {}),
        ...(i % 11 === 5 ? { status: 'draft' } : i % 13 === 6 ? { status: 'private' } : {}),
        ...(i % 8 === 7 ? { password: 'secret' } : {}),
        ...(i % 10 === 9 ? { timezone: 'America/New_York' } : {}),
        ...(i % 3 === 2 ? { capacity: 20 * i } : {}),
      });
      // Tickets (the example module): some on sale, some not yet, so documents hold a time-bound member.
      if (i % 3 === 0)
        await post(`events/${event.id}/tickets`, {
          name: 'Entry',
          sale_start: i % 2 ? '2030-03-01 13:00:00' : '2030-02-01 00:00:00',
        });
      if (i === 0) ids.first = event.id;
      if (i === 1) ids.second = event.id;
      if (i === 2) ids.parent = event.id;
    }
    await postEvent(fast, admin.auth, { title: 'Child', post_parent: ids.parent });
    // A series (behaviour.md §11), its documents stored, then one occurrence deleted: the EXDATE changes every
    // other occurrence's `recurrence`, so a document that missed the change would differ from the exact query.
    const series = await postEvent(fast, admin.auth, {
      title: 'Jazz series',
      start_date: '2030-03-04 20:00:00',
      end_date: '2030-03-04 22:00:00',
      categories: ['Jazz'],
      venue: ids.venue,
      recurrence: ['RRULE:FREQ=DAILY;INTERVAL=3;COUNT=6'],
    });
    ids.series = series.id;
    await fast.http
      .put(`${ns}/events/${series.id + 3}?scope=all`)
      .set('Authorization', admin.auth)
      .send({ tags: ['free'] })
      .expect(200);
    // Documents are filled for what reads assemble: a read of the series' days asks for them.
    await fast.http.get(`${ns}/events?start_date=2030-03-01&end_date=2030-03-31&per_page=50`).expect(200);
    await documentsSettled(fast);
    await fast.http
      .delete(`${ns}/events/${series.id + 2}?force=true`)
      .set('Authorization', admin.auth)
      .expect(200);
  });
  afterAll(async () => {
    await exact?.close();
    await fast?.close();
  });

  /** Each declared parameter of `GET /events` and its samples (test/support/declared-samples.ts), read once. */
  let samples: Promise<Map<string, string[]>> | undefined;
  function samplesFor(): Promise<Map<string, string[]>> {
    samples ??= readSamples();
    return samples;
  }
  function readSamples(): Promise<Map<string, string[]>> {
    // The records this data made for a purpose: an event with a child, two events, a category.
    const dataIds = {
      post_parent: [String(ids.parent)],
      include: [`${ids.first},${ids.second}`],
      categories: [String(ids.opera)],
      series_id: [String(ids.series)],
    };
    const merged: Record<string, string[]> = { ...DATA_SAMPLES };
    for (const [name, values] of Object.entries(dataIds)) merged[name] = [...(merged[name] ?? []), ...values];
    return declaredListSamples(fast, admin.auth, merged);
  }

  /** Every page of `query` as `auth` sees it: statuses, totals and each page's bytes. */
  async function pages(t: TestApp, base: string, query: string, auth?: string): Promise<unknown[]> {
    const seen: unknown[] = [];
    for (let page = 1; page <= 40; page++) {
      const req = t.http.get(`${base}/events?${query}${query ? '&' : ''}page=${page}`).set('Host', HOST);
      const res = await (auth ? req.set('Authorization', auth) : req);
      // (An error's request id is its own per request.)
      const text = res.status === 200 ? res.text : res.text.replace(/"request_id":"[^"]*"/, '');
      seen.push([res.status, res.headers['x-wp-total'], res.headers['x-wp-totalpages'], text]);
      if (res.status !== 200 || page >= Number(res.headers['x-wp-totalpages'])) break;
    }
    return seen;
  }

  it('has samples for every filter of GET /events, from the declarations', async () => {
    const samples = await samplesFor();
    expect([...samples].filter(([, values]) => values.length === 0).map(([name]) => name)).toEqual([]);
    // The extensions' filters sample themselves: a linked type's ids, a taxonomy's slugs, a stored field's bounds.
    expect(samples.get('speaker')).toContain(String(ids.speaker));
    expect(samples.get('audiences')).toContain('adults');
    expect(samples.get('all_day')).toEqual(['true', 'false']);
    expect(samples.get('min_capacity')).toEqual(['0', '49', '499']);
    expect(samples.get('venue')).toContain(String(ids.venue));
  });

  const MONTH = 'start_date=2030-03-01&end_date=2030-03-31';

  /**
   * Every read the comparison runs: each sample alone and in each window, and the fast paths' own shapes,
   * through `cal/events/v1`; through the TEC alias (its own stored bodies), each sample in the month's window
   * and the same shapes.
   */
  async function comparedReads(): Promise<{ base: string; query: string }[]> {
    const native = await comparedQueries(['', MONTH, 'start_date=2030-03-06&end_date=2030-03-12']);
    const alias = await comparedQueries([MONTH]);
    return [...native.map((query) => ({ base: ns, query })), ...alias.map((query) => ({ base: TEC, query }))];
  }

  /** Each sample alone and in each of `windows`, and the fast paths' own shapes. */
  async function comparedQueries(windows: string[]): Promise<string[]> {
    const queries = new Set<string>(windows);
    for (const [name, values] of await samplesFor()) {
      if (name === 'page') continue;
      for (const value of values) {
        for (const window of windows) {
          const params = new URLSearchParams(window);
          params.set(name, value);
          queries.add(params.toString());
        }
      }
    }
    // The fast paths' own shapes: whole UTC days with one term, one word, deep pages.
    queries.add(
      'start_date=2030-03-01 00:00:00&end_date=2030-03-31 23:59:59&strict_dates=true&categories=opera&per_page=2',
    );
    queries.add('start_date=2030-03-01 01:00:00&end_date=2030-03-31 00:59:59&strict_dates=true&search=jazz&per_page=2');
    queries.add('start_date=2030-03-01&end_date=2030-03-31&per_page=1');
    // A module's taxonomy takes the one-term route as categories do.
    queries.add(
      'start_date=2030-03-01 00:00:00&end_date=2030-03-31 23:59:59&strict_dates=true&audiences=kids&per_page=2',
    );
    return [...queries];
  }

  /**
   * The work is cut into shards, each its own test, so that no single test's time limit grows with the number
   * of declared filters or with a busy machine's pace: a shard is a fixed slice of the queries.
   */
  const SHARDS = Array.from({ length: 8 }, (_, shard) => shard);
  const compared = new Map<string, number>();

  /** The shard's reads compared as anonymous and as administrator, page by page; how many were compared. */
  async function compareShard(shard: number): Promise<number> {
    const reads = (await comparedReads()).filter((_, index) => index % SHARDS.length === shard);
    for (const { base, query } of reads) {
      for (const auth of [undefined, admin.auth]) {
        const who = auth ? 'administrator' : 'anonymous';
        expect({ base, query, who, pages: await pages(fast, base, query, auth) }).toEqual({
          base,
          query,
          who,
          pages: await pages(exact, base, query, auth),
        });
      }
    }
    return reads.length * 2;
  }

  describe('every filter, alone and in the shapes the fast paths take, as the writes left the documents', () => {
    it.each(SHARDS)('equals the exact query (shard %i)', async (shard) => {
      compared.set(`writes ${shard}`, await compareShard(shard));
    });
  });

  describe('every filter, alone and in the shapes the fast paths take, with every stored document filled', () => {
    beforeAll(() => documentsSettled(fast));
    it.each(SHARDS)('equals the exact query (shard %i)', async (shard) => {
      compared.set(`filled ${shard}`, await compareShard(shard));
    });
    it('compared every query in both rounds, and the documents carry the configured hosts', async () => {
      expect(compared.size).toBe(SHARDS.length * 2);
      expect([...compared.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(300);
      const served = await fast.http.get(`${ns}/events`).set('Host', HOST).expect(200);
      expect(served.text).toContain('"global_id":"ids.example.org?id=');
      expect(served.text).toContain('"rest_url":"https://cal.example.org/');
      // Both dialects were served from stored bodies of their own, not only assembled.
      const documents = fast.app.get(EventDocuments, { strict: false });
      for (const dialect of DIALECTS) {
        const [row] = await fast.dataSource.query<{ n: number | string }[]>(
          'SELECT COUNT(*) AS n FROM event_document_bodies WHERE format = ? AND object_json <> ?',
          [documents.formatOf(dialect), ''],
        );
        expect({ dialect, moreThanTen: Number(row.n) > 10 }).toEqual({ dialect, moreThanTen: true });
      }
    });
  });

  describe('links every page to the next page of the same filtered list, for every filter (next_rest_url)', () => {
    /** Each page by the query the test writes, and the same page by the previous page's `next_rest_url`. */
    async function pagesBothWays(query: string, auth?: string): Promise<{ written: string[]; followed: string[] }> {
      const get = (path: string) => {
        const req = fast.http.get(path).set('Host', HOST);
        return auth ? req.set('Authorization', auth) : req;
      };
      const written: string[] = [];
      const followed: string[] = [];
      let next: string | undefined;
      for (let page = 1; page <= 40; page++) {
        const res = await get(`${ns}/events?${query}&page=${page}`);
        written.push(`${res.status} ${res.headers['x-wp-total']} ${res.text}`);
        if (next !== undefined) {
          const link = new URL(next);
          const viaLink = await get(`${link.pathname}${link.search}`);
          followed.push(`${viaLink.status} ${viaLink.headers['x-wp-total']} ${viaLink.text}`);
        } else if (page > 1) followed.push('no next_rest_url on the page before');
        if (res.status !== 200 || page >= Number(res.headers['x-wp-totalpages'])) break;
        next = (res.body as { next_rest_url?: string }).next_rest_url;
      }
      return { written: written.slice(1), followed };
    }
    /** Each sample in one month's window, two to a page. */
    async function linkedQueries(): Promise<string[]> {
      const queries: string[] = [];
      for (const [name, values] of await samplesFor()) {
        if (name === 'page' || name === 'per_page') continue;
        for (const value of values) {
          const params = new URLSearchParams('start_date=2030-03-01&end_date=2030-03-31&per_page=2');
          params.set(name, value);
          queries.push(params.toString());
        }
      }
      return queries;
    }
    let withSecondPage = 0;
    const done = new Set<number>();
    it.each(SHARDS)('follows next_rest_url as the written query (shard %i)', async (shard) => {
      const queries = (await linkedQueries()).filter((_, index) => index % SHARDS.length === shard);
      for (const query of queries) {
        for (const auth of [undefined, admin.auth]) {
          const { written, followed } = await pagesBothWays(query, auth);
          expect({ query, followed }).toEqual({ query, followed: written });
          if (written.length > 0) withSecondPage++;
        }
      }
      done.add(shard);
    });
    it('found a second page for most filters', () => {
      expect(done.size).toBe(SHARDS.length);
      // Most filters leave more than one page of two: a dropped parameter would show its unfiltered list there.
      expect(withSecondPage).toBeGreaterThan(60);
    });
  });
});
