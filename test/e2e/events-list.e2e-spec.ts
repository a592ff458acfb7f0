import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import type { Role } from '../../src/auth/roles';
import { captureStatements, documentsSettled, withoutPort } from '../support/statements';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const base = '/cal/events/v1/events';
/** The service's clock is pinned here, so "yesterday" and the default window never move under a test. */
const NOW = DateTime.fromISO('2030-06-15T12:00:00Z', { zone: 'utc' });

describe('events: list', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const ids: Record<string, number> = {};
  const as = (role: Role) => users[role].auth;
  const titles = (body: { events: { title: string }[] }) => body.events.map((e) => e.title);
  const list = async (query: string, role?: Role) => {
    const req = t.http.get(`${base}${query ? `?${query}` : ''}`);
    const res = await (role ? req.set('Authorization', as(role)) : req);
    expect(res.status).toBe(200);
    return res.body as {
      events: { title: string; id: number }[];
      total: number;
      total_pages: number;
      rest_url: string;
      next_rest_url?: string;
      previous_rest_url?: string;
    };
  };
  const day = (offset: number, time = '12:00:00') => `${NOW.plus({ days: offset }).toFormat('yyyy-MM-dd')} ${time}`;

  beforeAll(async () => {
    // No caches here, so the query-count check sees the same work each time.
    t = await createTestApp({ now: NOW.toJSDate(), env: { RESPONSE_CACHE_MB: '0' } });
    users = await createUsersForAllRoles(t);
    const make = async (title: string, fields: Record<string, unknown>, role: Role = 'editor') => {
      ids[title] = (await postEvent(t, as(role), { title, ...fields })).id;
    };
    const venue = await t.http
      .post('/cal/events/v1/venues')
      .set('Authorization', as('editor'))
      .send({ venue: 'List Venue' })
      .expect(201);
    const organizer = await t.http
      .post('/cal/events/v1/organizers')
      .set('Authorization', as('editor'))
      .send({ organizer: 'List Org' })
      .expect(201);
    ids.venue = venue.body.id;
    ids.organizer = organizer.body.id;
    await make('Long Ago', { start_date: '2001-01-01 10:00', end_date: '2001-01-01 12:00' });
    await make('Yesterday Morning', {
      start_date: day(-1, '08:00:00'),
      end_date: day(-1, '09:00:00'),
      categories: ['Music'],
    });
    await make('Today Jazz', {
      start_date: day(0, '18:00:00'),
      end_date: day(0, '21:00:00'),
      description: 'smooth jazz quartet',
      categories: ['Music', 'Jazz'],
      tags: ['late'],
      venue: ids.venue,
      featured: true,
    });
    await make('Next Week Theatre', {
      start_date: day(7, '19:00:00'),
      end_date: day(7, '22:00:00'),
      excerpt: 'a "dark comedy" play',
      categories: ['Theatre'],
      organizer: [ids.organizer],
    });
    await make('Next Month', { start_date: day(30), end_date: day(31) });
    await make('Far Future', { start_date: '2099-01-01 10:00', end_date: '2099-01-01 12:00' });
    await make('Hidden', { start_date: day(2), end_date: day(2), hide_from_listings: true });
    await make('Contributor Draft', { start_date: day(3), end_date: day(3) }, 'contributor');
    await make('Editor Private', { start_date: day(4), end_date: day(4), status: 'private' });
    await make('Festival Child', { start_date: day(5), end_date: day(5), post_parent: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows anonymous callers published, listed events in the default window, by start date', async () => {
    const body = await list('');
    expect(titles(body)).toEqual([
      'Yesterday Morning',
      'Today Jazz',
      'Festival Child',
      'Next Week Theatre',
      'Next Month',
    ]);
    expect(body.total).toBe(5);
    expect(body.rest_url).toMatch(
      /start_date=\d{4}-\d{2}-\d{2}\+00%3A00%3A00&end_date=\d{4}-\d{2}-\d{2}\+23%3A59%3A59/,
    );
  });

  it('sends the envelope and total headers', async () => {
    const res = await t.http.get(`${base}?per_page=2`).expect(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(res.headers).toMatchObject({
      'x-tec-total': '5',
      'x-tec-totalpages': '3',
      'x-wp-total': '5',
      'x-wp-totalpages': '3',
    });
    const last = await t.http.get(`${base}?per_page=2&page=3`).expect(200);
    expect(last.body).not.toHaveProperty('next_rest_url');
    expect(last.body.previous_rest_url).toContain('page=2');
    const beyond = await t.http.get(`${base}?per_page=2&page=4`).expect(404);
    expect(beyond.body.code).toBe('event-archive-page-not-found');
    expect((await list('per_page=999')).rest_url).toContain('per_page=50');
  });

  it('shows editors every status but trash, and contributors their own', async () => {
    expect(titles(await list('', 'editor'))).toEqual(expect.arrayContaining(['Contributor Draft', 'Editor Private']));
    const contributor = titles(await list('', 'contributor'));
    expect(contributor).toContain('Contributor Draft');
    expect(contributor).not.toContain('Editor Private');
    expect(titles(await list('status=private', 'editor'))).toEqual(['Editor Private']);
    expect((await t.http.get(`${base}?status=draft`).expect(400)).body.data.params).toHaveProperty('status');
    await t.http.get(`${base}?status=nonsense`).set('Authorization', as('editor')).expect(400);
    await t.http.get(`${base}?status=draft`).set('Authorization', as('subscriber')).expect(400);
    expect(titles(await list('status=publish', 'subscriber'))).not.toContain('Contributor Draft');
  });

  it('never lists hidden events, but reads them by id', async () => {
    expect(titles(await list('start_date=2000-01-01&end_date=2100-01-01&per_page=50', 'editor'))).not.toContain(
      'Hidden',
    );
    await t.http.get(`${base}/${ids.Hidden}`).expect(200);
  });

  it('filters by start_date and end_date over whole days unless strict', async () => {
    expect(titles(await list(`start_date=${day(7, '23:00:00')}&end_date=${day(7, '23:00:00')}`))).toEqual([
      'Next Week Theatre',
    ]);
    expect(titles(await list(`start_date=${day(7, '20:00:00')}&end_date=${day(8)}&strict_dates=true`))).toEqual([]);
    expect(
      titles(await list(`start_date=${day(7, '19:00:00')}&end_date=${day(7, '22:00:00')}&strict_dates=1`)),
    ).toEqual(['Next Week Theatre']);
    expect(titles(await list('start_date=2098-01-01&end_date=2100-01-01'))).toEqual(['Far Future']);
    expect(titles(await list('start_date=2000-01-01&end_date=2002-01-01'))).toEqual(['Long Ago']);
  });

  it('keeps the other bound’s default when only one is given', async () => {
    const fromLongAgo = titles(await list('start_date=2000-01-01&per_page=50'));
    expect(fromLongAgo).toContain('Long Ago');
    expect(fromLongAgo).toContain('Next Month');
    expect(fromLongAgo).not.toContain('Far Future');
    const untilFarAway = titles(await list('end_date=2100-01-01&per_page=50'));
    expect(untilFarAway).toContain('Far Future');
    expect(untilFarAway).not.toContain('Long Ago');
    expect(titles(await list('start_date=2098-01-01'))).toEqual([]);
  });

  it('uses the exclusive bounds instead of the default window', async () => {
    expect(titles(await list('starts_before=2002-01-01'))).toEqual(['Long Ago']);
    expect(titles(await list('starts_after=2098-12-31'))).toEqual(['Far Future']);
    expect(titles(await list(`ends_after=${day(29)}`))).toEqual(['Next Month', 'Far Future']);
    expect(titles(await list(`ends_before=${day(-2)}&start_date=2000-01-01`))).toEqual(['Long Ago']);
    expect(titles(await list(`ends_before=${day(-1)}&start_date=2000-01-01`))).toEqual([
      'Long Ago',
      'Yesterday Morning',
    ]);
    expect(titles(await list(`starts_after=${day(6)}&starts_before=${day(8)}`))).toEqual(['Next Week Theatre']);
  });

  it('searches every word, keeping quoted phrases, in title, excerpt and description', async () => {
    expect(titles(await list('search=JAZZ quartet'))).toEqual(['Today Jazz']);
    expect(titles(await list('search=%22dark comedy%22'))).toEqual(['Next Week Theatre']);
    expect(titles(await list('search=%22comedy dark%22'))).toEqual([]);
  });

  it('filters by categories and tags, by id or slug, any of them', async () => {
    const categories = await t.http.get('/cal/events/v1/categories?hide_empty=0').expect(200);
    const theatre = (categories.body.categories as { id: number; slug: string }[]).find((c) => c.slug === 'theatre')!;
    expect(titles(await list(`categories=jazz,${theatre.id}`))).toEqual(['Today Jazz', 'Next Week Theatre']);
    expect(titles(await list('categories[]=music'))).toEqual(['Yesterday Morning', 'Today Jazz']);
    expect(titles(await list('tags=late'))).toEqual(['Today Jazz']);
    expect(titles(await list('categories=music&tags=late'))).toEqual(['Today Jazz']);
    expect((await t.http.get(`${base}?categories=no-such-category`).expect(400)).body.data.params).toHaveProperty(
      'categories',
    );
    await t.http.get(`${base}?tags=999999`).expect(400);
  });

  it('filters by venue, organizer, featured and post_parent', async () => {
    expect(titles(await list(`venue=${ids.venue}`))).toEqual(['Today Jazz']);
    expect(titles(await list(`organizer[]=${ids.organizer}`))).toEqual(['Next Week Theatre']);
    expect(titles(await list('featured=true'))).toEqual(['Today Jazz']);
    expect(titles(await list('featured=false'))).not.toContain('Today Jazz');
    await t.http.get(`${base}?venue=${ids.organizer}`).expect(400);
    await t.http.get(`${base}?organizer=999999`).expect(400);
    const parent = await postEvent(t, as('editor'), { title: 'Parent Fest', start_date: day(5), end_date: day(6) });
    await t.http
      .patch(`${base}/${ids['Festival Child']}`)
      .set('Authorization', as('editor'))
      .send({ post_parent: parent.id })
      .expect(200);
    expect(titles(await list(`post_parent=${parent.id}`))).toEqual(['Festival Child']);
    expect((await t.http.get(`${base}?post_parent=${ids.venue}`).expect(400)).body.code).toBe('rest-invalid-event-id');
    await t.http.get(`${base}?post_parent=999999`).expect(400);
  });

  it('lists only the included ids, ignoring dates, in publication order', async () => {
    const body = await list(`include=${ids['Far Future']},${ids['Long Ago']}&start_date=${day(0)}`);
    expect(titles(body)).toEqual(['Long Ago', 'Far Future']);
  });

  it('validates the optional-module filters', async () => {
    expect((await t.http.get(`${base}?ticketed=true`).expect(400)).body.data.params).toHaveProperty('ticketed');
    await t.http.get(`${base}?ticketed=false`).expect(200);
    await t.http.get(`${base}?geoloc=true&geoloc_lat=52.5&geoloc_lng=13.4`).expect(200);
    expect(Object.keys((await t.http.get(`${base}?geoloc_lat=52.5`).expect(400)).body.data.params)).toEqual([
      'geoloc_lng',
    ]);
    expect(Object.keys((await t.http.get(`${base}?geoloc_lat=91&geoloc_lng=0`).expect(400)).body.data.params)).toEqual([
      'geoloc_lat',
    ]);
  });

  it.each([
    ['start_date=soon', 'start_date'],
    ['ends_before=2030-02-30', 'ends_before'],
    ['strict_dates=maybe', 'strict_dates'],
    ['featured=yes', 'featured'],
    ['include=', 'include'],
    ['search=', 'search'],
    ['page=0', 'page'],
    ['per_page=abc', 'per_page'],
  ])('refuses %s', async (query, param) => {
    const res = await t.http.get(`${base}?${query}`).expect(400);
    expect(Object.keys(res.body.data.params)).toEqual([param]);
  });

  it('runs the same number of SQL queries for 5 and for 50 events per page', async () => {
    for (let i = 0; i < 12; i++) {
      await postEvent(t, as('editor'), {
        title: `Bulk ${i}`,
        start_date: day(10 + i),
        end_date: day(10 + i),
        categories: ['Bulk', `Bulk ${i}`],
        tags: [`bulk-tag-${i}`],
        venue: { venue: `Bulk Venue ${i}` },
        organizer: [{ organizer: `Bulk Org ${i}` }, ids.organizer],
        image: `https://cdn.example.org/bulk-${i}.jpg`,
      });
    }
    let small: Awaited<ReturnType<typeof list>> | undefined;
    let large: Awaited<ReturnType<typeof list>> | undefined;
    // No event has a document yet: every one is assembled (the documents' read finds them empty).
    const smallStatements = await captureStatements(t, async () => (small = await list('categories=bulk&per_page=5')));
    await documentsSettled(t);
    // The first five now answer from their documents, the other seven are assembled: as many statements.
    const largeStatements = await captureStatements(t, async () => (large = await list('categories=bulk&per_page=50')));
    expect(small?.events).toHaveLength(5);
    expect(large?.events).toHaveLength(12);
    expect(largeStatements).toHaveLength(smallStatements.length);
    // (One of them looks for categories below `bulk`, which the filter includes.)
    expect(smallStatements.length).toBeLessThanOrEqual(7);
    await documentsSettled(t);
    // All from documents: the page, then the documents with their terms' counts; nothing they embed is read.
    let stored: Awaited<ReturnType<typeof list>> | undefined;
    const storedStatements = await captureStatements(
      t,
      async () => (stored = await list('categories=bulk&per_page=50')),
    );
    expect(withoutPort(stored?.events)).toEqual(withoutPort(large?.events));
    expect(storedStatements).toHaveLength(smallStatements.length - 2);
    expect(storedStatements.join('\n')).not.toMatch(/event_venues|attachment_details/);
    const storedSmall = await captureStatements(t, () => list('categories=bulk&per_page=5'));
    expect(storedSmall).toHaveLength(storedStatements.length);
  });
});

describe('events: cached list totals', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ now: NOW.toJSDate() });
    editor = (await createUsersForAllRoles(t)).editor;
  });
  afterAll(async () => {
    await t.close();
  });

  it('reuses a total until a write, then counts again', async () => {
    const window = 'start_date=2030-07-01&end_date=2030-07-31';
    await postEvent(t, editor.auth, { start_date: '2030-07-10', end_date: '2030-07-10' });
    expect((await t.http.get(`${base}?${window}`).expect(200)).body.total).toBe(1);
    // A row written behind the service's back is not seen until the content version changes…
    await t.dataSource.query('UPDATE event_details SET hide_from_listings = 1');
    expect((await t.http.get(`${base}?${window}&per_page=5`).expect(200)).body.total).toBe(1);
    await t.dataSource.query('UPDATE event_details SET hide_from_listings = 0');
    // …which any write through the API does.
    await postEvent(t, editor.auth, { start_date: '2030-07-11', end_date: '2030-07-11' });
    const res = await t.http.get(`${base}?${window}`).expect(200);
    expect(res.body.total).toBe(2);
    expect(res.headers['x-wp-total']).toBe('2');
  });
});

describe('events hidden from listings: GET /events/hidden', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;

  beforeAll(async () => {
    t = await createTestApp();
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists what the caller may see of them, any date, by id, paged, and no list shows them', async () => {
    const post = async (role: Role, fields: Record<string, unknown>) =>
      (
        await t.http
          .post(base)
          .set('Authorization', users[role].auth)
          .send({ start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', ...fields })
          .expect(201)
      ).body as { id: number };
    const old = await post('editor', {
      title: 'Old unlisted',
      hide_from_listings: true,
      start_date: '1999-01-01 10:00',
      end_date: '1999-01-01 11:00',
    });
    const open = await post('editor', { title: 'Unlisted', hide_from_listings: true });
    const secret = await post('editor', {
      title: 'Unlisted, protected',
      hide_from_listings: true,
      password: 'pw',
      description: '<p>inner</p>',
    });
    const draft = await post('author', { title: 'Unlisted draft', hide_from_listings: true, status: 'draft' });
    await post('editor', { title: 'Listed' });
    const hidden = (role?: Role, query = 'per_page=50') => {
      const req = t.http.get(`${base}/hidden?${query}`);
      return role ? req.set('Authorization', users[role].auth) : req;
    };
    const idsOf = (res: { body: { events: { id: number }[] } }) => res.body.events.map((e) => e.id);
    const anonymous = await hidden().expect(200);
    expect(idsOf(anonymous)).toEqual([old.id, open.id, secret.id]);
    expect(anonymous.headers['x-wp-total']).toBe('3');
    // Protected content blanked, as in every list.
    const protectedItem = (anonymous.body as { events: { id: number; description: string }[] }).events[2];
    expect(protectedItem.description).not.toContain('inner');
    expect(idsOf(await hidden('author').expect(200))).toEqual([old.id, open.id, secret.id, draft.id]);
    expect(idsOf(await hidden('editor').expect(200))).toEqual([old.id, open.id, secret.id, draft.id]);
    expect(idsOf(await hidden('contributor').expect(200))).toEqual([old.id, open.id, secret.id]);
    const first = await hidden(undefined, 'per_page=2').expect(200);
    expect(idsOf(first)).toEqual([old.id, open.id]);
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.body.next_rest_url).toContain('/events/hidden?');
    expect((await hidden(undefined, 'per_page=2&page=3').expect(404)).body.code).toBe('event-archive-page-not-found');
    await hidden(undefined, 'per_page=0').expect(400);
    const listed = await t.http.get(`${base}?start_date=1990-01-01&end_date=2100-01-01&per_page=50`).expect(200);
    expect(titles(listed.body)).toEqual(['Listed']);
  });
});

const titles = (body: { events: { title: string }[] }) => body.events.map((e) => e.title);
