import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '../../src/auth/roles';
import { captureStatements } from '../support/statements';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent, type EventBody } from '../support/events';
import { createUser, createUsersForAllRoles, type TestUser } from '../support/users';

const base = '/cal/events/v1/events';

describe('events: create', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const as = (role: Role) => users[role].auth;

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'Europe/Berlin' } });
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 201 with the full event object', async () => {
    const res = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'Opening Night', start_date: '2030-07-01 19:30', end_date: '2030-07-01 22:00:00' })
      .expect(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'series_id',
      'recurrence',
      'password_protected',
      'categories',
      'tags',
      'venue',
      'organizer',
      'json_ld',
    ]);
    expect(res.body).toMatchObject({
      title: 'Opening Night',
      slug: 'opening-night',
      status: 'publish',
      author: users.editor.id,
      image: false,
      all_day: false,
      start_date: '2030-07-01 19:30:00',
      start_date_details: { year: '2030', month: '07', day: '01', hour: '19', minutes: '30', seconds: '00' },
      end_date: '2030-07-01 22:00:00',
      utc_start_date: '2030-07-01 17:30:00',
      utc_end_date_details: { hour: '20', minutes: '00' },
      timezone: 'Europe/Berlin',
      timezone_abbr: 'CEST',
      cost: '',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: [] },
      website: res.body.url,
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
    });
  });

  it.each([
    ['2030-01-10 18:00:00', '2030-01-10 17:00:00'],
    ['2030-01-10 18:00', '2030-01-10 17:00:00'],
    ['2030-01-10', '2030-01-09 23:00:00'],
    ['2030-01-10T18:00:00', '2030-01-10 17:00:00'],
    ['2030-01-10T18:00:00Z', '2030-01-10 18:00:00'],
    ['2030-01-10T18:00:00-05:00', '2030-01-10 23:00:00'],
    [1894298400, '2030-01-10 18:00:00'],
    ['1894298400', '2030-01-10 18:00:00'],
  ])('reads the start date %p in the site zone', async (start, utc) => {
    const event = await postEvent(t, as('editor'), { start_date: start, end_date: '2030-02-01' });
    expect(event.utc_start_date).toBe(utc);
  });

  it('reads dates in the event’s own zone, IANA or UTC±N', async () => {
    const ny = await postEvent(t, as('editor'), {
      timezone: 'America/New_York',
      start_date: '2030-01-10 18:00',
      end_date: '2030-01-10 20:00',
    });
    expect(ny).toMatchObject({
      start_date: '2030-01-10 18:00:00',
      utc_start_date: '2030-01-10 23:00:00',
      timezone_abbr: 'EST',
    });
    const fixed = await postEvent(t, as('editor'), {
      timezone: 'UTC+3',
      start_date: '2030-01-10 18:00',
      end_date: '2030-01-10 20:00',
    });
    expect(fixed).toMatchObject({ utc_start_date: '2030-01-10 15:00:00', timezone: 'UTC+3', timezone_abbr: 'UTC+3' });
  });

  it('survives a start inside the spring-forward gap', async () => {
    const event = await postEvent(t, as('editor'), { start_date: '2030-03-31 02:30', end_date: '2030-03-31 05:00' });
    expect(event).toMatchObject({ start_date: '2030-03-31 03:30:00', utc_start_date: '2030-03-31 01:30:00' });
  });

  it('stretches all-day events over whole days', async () => {
    const event = await postEvent(t, as('editor'), {
      all_day: 'true',
      start_date: '2030-08-01 15:00',
      end_date: '2030-08-02 09:00',
    });
    expect(event).toMatchObject({ all_day: true, start_date: '2030-08-01 00:00:00', end_date: '2030-08-02 23:59:59' });
  });

  it('refuses an end before the start, bad dates and bad zones, naming each', async () => {
    const backwards = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-02', end_date: '2030-01-01' })
      .expect(400);
    expect(backwards.body.data.params).toEqual({ end_date: 'must not be before start_date' });
    const bad = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: 'next friday', end_date: '2030-13-01', timezone: 'Atlantis/Capital' })
      .expect(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['end_date', 'start_date', 'timezone']);
  });

  it('names missing title, start_date and end_date', async () => {
    const res = await t.http.post(base).set('Authorization', as('editor')).send({ description: 'x' }).expect(400);
    expect(res.body.code).toBe('rest_missing_callback_param');
    expect(res.body.data.params.sort()).toEqual(['end_date', 'start_date', 'title']);
    const blank = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: ' ', start_date: '2030-01-01', end_date: '2030-01-01' })
      .expect(400);
    expect(Object.keys(blank.body.data.params)).toEqual(['title']);
  });

  it('makes slugs from the slug or the title, unique with -2', async () => {
    const a = await postEvent(t, as('editor'), { title: 'Café Concert' });
    const b = await postEvent(t, as('editor'), { title: 'Café Concert' });
    const c = await postEvent(t, as('editor'), { title: 'Other', slug: 'Café Concert' });
    expect([a.slug, b.slug, c.slug]).toEqual(['cafe-concert', 'cafe-concert-2', 'cafe-concert-3']);
  });

  it.each([
    ['15', '$15', ['15'], 'USD'],
    [25, '$25', ['25'], 'USD'],
    ['10 - 20', '$10 – $20', ['10', '20'], 'USD'],
    ['Free – 30$', 'Free – 30$', ['0', '30'], 'USD'],
    ['€12', '€12', ['12'], 'EUR'],
    ['Pay what you can', 'Pay what you can', [], 'USD'],
    [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30'], 'USD'],
    [[0, 12], 'Free – $12', ['0', '12'], 'USD'],
    ['0', 'Free', ['0'], 'USD'],
  ])('formats the cost %p as %p', async (cost, formatted, values, code) => {
    const event = await postEvent(t, as('editor'), { cost });
    expect(event.cost).toBe(formatted);
    expect(event.cost_details).toMatchObject({ values, currency_code: code });
  });

  it.each([[[{ a: 1 }]], [[['nested']]], [Array.from({ length: 21 }, () => '1')], [{ amount: 5 }], [true]])(
    'refuses the cost %p with a 400 naming it',
    async (cost) => {
      const res = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ title: 'Odd cost', start_date: '2030-01-01', end_date: '2030-01-01', cost })
        .expect(400);
      expect(Object.keys(res.body.data.params)).toEqual(['cost']);
    },
  );

  it('stores the flags and the website', async () => {
    const event = await postEvent(t, as('editor'), {
      show_map: false,
      show_map_link: '0',
      hide_from_listings: 1,
      sticky: 'true',
      featured: true,
      website: 'https://tickets.example.org/e/1',
    });
    expect(event).toMatchObject({
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      website: 'https://tickets.example.org/e/1',
    });
  });

  it('sanitises description and excerpt', async () => {
    const event = await postEvent(t, as('editor'), {
      description: '<p onmouseover="x()">Hi<script>alert(1)</script> <a href="javascript:void(0)">link</a></p>',
      excerpt: '<img src="https://e.org/a.png" onerror="x()">Short',
    });
    expect(event.description).toBe('<p>Hi <a>link</a></p>');
    expect(event.excerpt).toBe('<img src="https://e.org/a.png" />Short');
  });

  it('takes categories and tags by id or name, creating unknown names, sorted by name', async () => {
    const existing = await t.http
      .post('/cal/events/v1/categories')
      .set('Authorization', as('editor'))
      .send({ name: 'Theatre' })
      .expect(201);
    const event = await postEvent(t, as('author'), { categories: [existing.body.id, 'Comedy'], tags: 'late,outdoor' });
    expect((event.categories as { name: string }[]).map((c) => c.name)).toEqual(['Comedy', 'Theatre']);
    expect((event.tags as { name: string; count: number }[]).map((c) => [c.name, c.count])).toEqual([
      ['late', 1],
      ['outdoor', 1],
    ]);
    const again = await postEvent(t, as('author'), { categories: ['comedy', 'theatre'] });
    expect((again.categories as { id: number }[]).map((c) => c.id).sort()).toEqual(
      (event.categories as { id: number }[]).map((c) => c.id).sort(),
    );
  });

  it('refuses unknown category and tag ids, naming every bad field (behaviour.md §2)', async () => {
    const res = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01', categories: [999999], tags: [888888] })
      .expect(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['categories', 'tags']);
  });

  it('links venue and organizers by id, {id} and inline objects, in order, reusing duplicates', async () => {
    const venue = await t.http
      .post('/cal/events/v1/venues')
      .set('Authorization', as('editor'))
      .send({ venue: 'Hall A' })
      .expect(201);
    const first = await t.http
      .post('/cal/events/v1/organizers')
      .set('Authorization', as('editor'))
      .send({ organizer: 'First' })
      .expect(201);
    const event = await postEvent(t, as('editor'), {
      venue: { id: venue.body.id },
      organizer: [{ organizer: 'Inline Org', email: 'hi@inline.example' }, first.body.id, { id: first.body.id }],
    });
    expect((event.venue as { id: number }).id).toBe(venue.body.id);
    expect((event.organizer as { organizer: string }[]).map((o) => o.organizer)).toEqual(['Inline Org', 'First']);
    const byCsv = await postEvent(t, as('editor'), { venue: String(venue.body.id), organizer: `${first.body.id}` });
    expect((byCsv.organizer as { id: number }[]).map((o) => o.id)).toEqual([first.body.id]);
    const inlineAgain = await postEvent(t, as('editor'), { venue: { venue: 'hall a' } });
    expect((inlineAgain.venue as { id: number }).id).toBe(venue.body.id);
  });

  it('creates with inline venue and organizers in a fixed number of statements, one of them a lock', async () => {
    const body = {
      start_date: '2031-02-01 19:00',
      end_date: '2031-02-01 21:00',
      venue: { venue: 'Lock Hall' },
      organizer: [{ organizer: 'Lock Society' }, { organizer: 'Lock Choir' }],
    };
    // The first round creates the venue and both organizers (a look-up and two inserts each); the second
    // finds them. Counted from the transaction's start: the credential check before it may be cached.
    // One of them makes the event's (empty) document row; three read the new event back for the listing's day
    // counts and the word index, which follow the write's change stream like every derived store.
    for (const [round, limit] of [
      ['created', 29],
      ['reused', 23],
    ] as const) {
      let status = 0;
      const statements = await captureStatements(t, async () => {
        status = (
          await t.http
            .post(base)
            .set('Authorization', as('editor'))
            .send({ ...body, title: round })
        ).status;
      });
      expect({ round, status }).toEqual({ round, status: 201 });
      expect(statements.filter((sql) => /^UPDATE write_locks\b/.test(sql))).toHaveLength(1);
      // MySQL sets the isolation level once per connection (`SET SESSION …`), not before each transaction.
      expect(statements.filter((sql) => /^SET TRANSACTION ISOLATION/.test(sql))).toHaveLength(0);
      const transaction = statements.slice(statements.findIndex((sql) => /^(START|BEGIN) TRANSACTION/.test(sql)));
      expect({ round, count: transaction.filter((sql) => !/^SET SESSION/.test(sql)).length }).toEqual({
        round,
        count: limit,
      });
    }
  });

  it('updates in a fixed number of statements: the event row read once, written without a look-up', async () => {
    const created = await postEvent(t, as('editor'), { title: 'Counted', venue: { venue: 'Counted Hall' } });
    for (const [change, body, limit] of [
      ['title', { title: 'Counted again' }, 20],
      ['dates', { start_date: '2031-03-02 10:00', end_date: '2031-03-02 12:00' }, 27],
    ] as const) {
      let status = 0;
      const statements = await captureStatements(t, async () => {
        status = (await t.http.patch(`${base}/${created.id}`).set('Authorization', as('editor')).send(body)).status;
      });
      expect({ change, status }).toEqual({ change, status: 200 });
      const transaction = statements.slice(statements.findIndex((sql) => /^(START|BEGIN) TRANSACTION/.test(sql)));
      expect({ change, count: transaction.filter((sql) => !/^SET SESSION/.test(sql)).length }).toEqual({
        change,
        count: limit,
      });
      expect(transaction.filter((sql) => /^SELECT .* FROM [`"]posts[`"] [`"]PostEntity[`"]/.test(sql))).toHaveLength(1);
      // The event's stored document is emptied in the same transaction.
      expect(transaction.filter((sql) => /^UPDATE [`"]event_documents[`"]/.test(sql))).toHaveLength(1);
    }
    const read = await t.http.get(`${base}/${created.id}`).expect(200);
    expect([read.body.title, read.body.start_date, read.body.end_date]).toEqual([
      'Counted again',
      '2031-03-02 10:00:00',
      '2031-03-02 12:00:00',
    ]);
  });

  it('reuses an inline venue only where the writer may see it: never another author’s draft', async () => {
    // The venue the writer's event shows (a venue it may not see would be left out of the answer).
    const venueId = (event: EventBody): number => {
      expect(event.venue).toEqual(expect.objectContaining({ id: expect.any(Number) }));
      return (event.venue as { id: number }).id;
    };
    const draft = (role: Role, name: string) =>
      t.http
        .post('/cal/events/v1/venues')
        .set('Authorization', as(role))
        .send({ venue: name, status: 'draft' })
        .expect(201);
    const editorsDraft = await draft('editor', 'Scoped Hall');
    const byAuthor = await postEvent(t, as('author'), { venue: { venue: 'Scoped Hall' } });
    expect(venueId(byAuthor)).not.toBe(editorsDraft.body.id);
    // The author's own new venue is found again, by the author and by an editor (who sees every record).
    expect(venueId(await postEvent(t, as('author'), { venue: { venue: 'scoped hall' } }))).toBe(venueId(byAuthor));
    const authorsDraft = await draft('author', 'Own Draft Hall');
    expect(venueId(await postEvent(t, as('author'), { venue: { venue: 'Own Draft Hall' } }))).toBe(
      authorsDraft.body.id,
    );
    expect(venueId(await postEvent(t, as('editor'), { venue: { venue: 'Own Draft Hall' } }))).toBe(
      authorsDraft.body.id,
    );
    // Another author sees neither draft: a venue of their own.
    const other = await createUser(t, 'author');
    const byOther = await postEvent(t, other.auth, { venue: { venue: 'Own Draft Hall' } });
    expect([authorsDraft.body.id, editorsDraft.body.id]).not.toContain(venueId(byOther));
  });

  it('refuses a linked id of another type with invalid-linked-post-id', async () => {
    const organizer = await t.http
      .post('/cal/events/v1/organizers')
      .set('Authorization', as('editor'))
      .send({ organizer: 'Not A Venue' })
      .expect(201);
    const res = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01', venue: organizer.body.id })
      .expect(400);
    expect(res.body.code).toBe('invalid-linked-post-id');
  });

  it('refuses an organizer id that is a venue with invalid-linked-post-id', async () => {
    const venue = await t.http
      .post('/cal/events/v1/venues')
      .set('Authorization', as('editor'))
      .send({ venue: 'Not An Org' })
      .expect(201);
    const res = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01', organizer: [venue.body.id] })
      .expect(400);
    expect(res.body.code).toBe('invalid-linked-post-id');
    expect(res.body.data.params).toEqual({ organizer: [venue.body.id] });
  });

  it('leaves nothing behind when a nested item is bad', async () => {
    const count = async (sql: string): Promise<number> => Number((await t.dataSource.query<{ n: number }[]>(sql))[0].n);
    const before = {
      posts: await count('SELECT COUNT(*) AS n FROM posts'),
      terms: await count('SELECT COUNT(*) AS n FROM terms'),
    };
    const res = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({
        title: 'Doomed',
        start_date: '2030-01-01',
        end_date: '2030-01-01',
        categories: ['Brand New Category'],
        venue: { venue: 'Brand New Venue', city: 'Rome' },
        organizer: [{ organizer: 'Good Org' }, { organizer: 'Bad Org', email: 'not-an-email' }],
      })
      .expect(400);
    expect(res.body.data.params).toEqual({ 'organizer[1].email': 'must be an e-mail address' });
    expect({
      posts: await count('SELECT COUNT(*) AS n FROM posts'),
      terms: await count('SELECT COUNT(*) AS n FROM terms'),
    }).toEqual(before);
  });

  it('records an image URL as an attachment', async () => {
    const event = await postEvent(t, as('editor'), { image: 'https://cdn.example.org/poster.webp' });
    expect(event.image).toMatchObject({
      url: 'https://cdn.example.org/poster.webp',
      extension: 'webp',
      mime_type: 'image/webp',
    });
  });

  it('links a parent event, refusing other types and unknown ids', async () => {
    const festival = await postEvent(t, as('editor'), { title: 'Festival' });
    const session = await postEvent(t, as('editor'), { title: 'Session', post_parent: festival.id });
    const row = (
      await t.dataSource.query<{ parent_id: number }[]>('SELECT parent_id FROM posts WHERE id = ?', [session.id])
    )[0];
    expect(Number(row.parent_id)).toBe(festival.id);
    const venue = await t.http
      .post('/cal/events/v1/venues')
      .set('Authorization', as('editor'))
      .send({ venue: 'Parent Venue' })
      .expect(201);
    const wrongType = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01', post_parent: venue.body.id })
      .expect(400);
    expect(wrongType.body.code).toBe('rest-invalid-event-id');
    const unknown = await t.http
      .post(base)
      .set('Authorization', as('editor'))
      .send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01', post_parent: 999999 })
      .expect(400);
    expect(unknown.body.data.params).toEqual({ post_parent: 'does not exist' });
  });

  it('applies the status rules by role', async () => {
    expect((await postEvent(t, as('contributor'), { status: 'publish' })).status).toBe('pending');
    expect((await postEvent(t, as('contributor'))).status).toBe('draft');
    expect((await postEvent(t, as('author'))).status).toBe('publish');
    expect((await postEvent(t, as('author'), { date_utc: '2999-01-01 00:00:00' })).status).toBe('future');
    expect((await postEvent(t, as('editor'), { status: 'private' })).status).toBe('private');
  });

  it.each([
    [null, 401],
    ['subscriber', 403],
  ] as const)('refuses %s with %i, after validating', async (role, status) => {
    const valid = t.http.post(base).send({ title: 'x', start_date: '2030-01-01', end_date: '2030-01-01' });
    expect((role ? await valid.set('Authorization', as(role)) : await valid).status).toBe(status);
    const invalid = t.http.post(base).send({ title: 'x' });
    expect((role ? await invalid.set('Authorization', as(role)) : await invalid).status).toBe(400);
  });
});

describe('events: update and delete', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const as = (role: Role) => users[role].auth;

  beforeAll(async () => {
    t = await createTestApp();
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['post', 'put', 'patch'] as const)('updates partially by id and by slug with %s', async (method) => {
    const event = await postEvent(t, as('editor'), {
      description: 'kept',
      featured: true,
      categories: ['Kept'],
      cost: '5',
    });
    const byId = await t.http[method](`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ title: `New ${method}` })
      .expect(200);
    expect(byId.body).toMatchObject({
      title: `New ${method}`,
      description: 'kept',
      featured: true,
      cost: '$5',
      slug: event.slug,
    });
    expect((byId.body.categories as { name: string }[]).map((c) => c.name)).toEqual(['Kept']);
    const bySlug = await t.http[method](`${base}/by-slug/${event.slug}`)
      .set('Authorization', as('editor'))
      .send({ featured: false })
      .expect(200);
    expect(bySlug.body).toMatchObject({ title: `New ${method}`, featured: false });
  });

  it('moves the dates, keeping the zone, and checks them against the stored ones', async () => {
    const event = await postEvent(t, as('editor'), {
      timezone: 'Asia/Tokyo',
      start_date: '2030-01-01 10:00',
      end_date: '2030-01-01 12:00',
    });
    const moved = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ end_date: '2030-01-01 15:00' })
      .expect(200);
    expect(moved.body).toMatchObject({
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 15:00:00',
      utc_end_date: '2030-01-01 06:00:00',
    });
    const backwards = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ start_date: '2030-01-02' })
      .expect(400);
    expect(Object.keys(backwards.body.data.params)).toEqual(['end_date']);
    const rezoned = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ timezone: 'UTC' })
      .expect(200);
    expect(rezoned.body).toMatchObject({ start_date: '2030-01-01 10:00:00', utc_start_date: '2030-01-01 10:00:00' });
  });

  it('replaces and clears links and terms, keeping counts right', async () => {
    const event = await postEvent(t, as('editor'), {
      categories: ['One'],
      tags: ['t1'],
      organizer: [{ organizer: 'O1' }],
    });
    const categoryId = (event.categories as { id: number }[])[0].id;
    const cleared = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ categories: [], organizer: [] })
      .expect(200);
    expect(cleared.body).toMatchObject({ categories: [], organizer: [] });
    expect((cleared.body.tags as unknown[]).length).toBe(1);
    expect((await t.http.get(`/cal/events/v1/categories/${categoryId}`).expect(200)).body.count).toBe(0);
  });

  it('keeps term counts right through publish, unpublish and a contributor’s pending event', async () => {
    const pending = await postEvent(t, as('contributor'), { status: 'publish', categories: ['Counted Cat'] });
    expect(pending.status).toBe('pending');
    const categoryId = (pending.categories as { id: number }[])[0].id;
    const countOf = async () => (await t.http.get(`/cal/events/v1/categories/${categoryId}`).expect(200)).body.count;
    const setStatus = (status: string) =>
      t.http.patch(`${base}/${pending.id}`).set('Authorization', as('editor')).send({ status }).expect(200);
    expect(await countOf()).toBe(0);
    await setStatus('publish');
    expect(await countOf()).toBe(1);
    await setStatus('draft');
    expect(await countOf()).toBe(0);
    await setStatus('publish');
    const gone = await t.http.delete(`${base}/${pending.id}?force=true`).set('Authorization', as('editor')).expect(200);
    // Gone for good, said so: never an answer that reads as a published event.
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: pending.id, status: 'publish' } });
    expect(gone.body.status).toBeUndefined();
    await t.http.get(`${base}/${pending.id}`).set('Authorization', as('editor')).expect(404);
    expect(await countOf()).toBe(0);
  });

  it('refuses a parent cycle and detaches with 0', async () => {
    const a = await postEvent(t, as('editor'));
    const b = await postEvent(t, as('editor'), { post_parent: a.id });
    await t.http.patch(`${base}/${a.id}`).set('Authorization', as('editor')).send({ post_parent: b.id }).expect(400);
    await t.http.patch(`${base}/${a.id}`).set('Authorization', as('editor')).send({ post_parent: a.id }).expect(400);
    await t.http.patch(`${base}/${b.id}`).set('Authorization', as('editor')).send({ post_parent: 0 }).expect(200);
    const row = (
      await t.dataSource.query<{ parent_id: number | null }[]>('SELECT parent_id FROM posts WHERE id = ?', [b.id])
    )[0];
    expect(row.parent_id).toBeNull();
  });

  it('applies ownership: contributors their drafts, authors their own, editors all', async () => {
    const draft = await postEvent(t, as('contributor'));
    await t.http.patch(`${base}/${draft.id}`).set('Authorization', as('contributor')).send({ title: 'ok' }).expect(200);
    const others = await postEvent(t, as('editor'));
    await t.http.patch(`${base}/${others.id}`).set('Authorization', as('contributor')).send({ title: 'x' }).expect(403);
    await t.http.patch(`${base}/${others.id}`).set('Authorization', as('author')).send({ title: 'x' }).expect(403);
    const own = await postEvent(t, as('author'));
    await t.http.patch(`${base}/${own.id}`).set('Authorization', as('author')).send({ title: 'mine' }).expect(200);
    await t.http.patch(`${base}/${own.id}`).set('Authorization', as('editor')).send({ title: 'edited' }).expect(200);
    await t.http.patch(`${base}/${own.id}`).send({ title: 'x' }).expect(401);
    await t.http.patch(`${base}/${own.id}`).set('Authorization', as('subscriber')).send({ title: 'x' }).expect(403);
  });

  it('answers unknown ids with 404 and ids of other types with 400', async () => {
    expect(
      (await t.http.patch(`${base}/999999`).set('Authorization', as('editor')).send({ title: 'x' }).expect(404)).body
        .code,
    ).toBe('rest-event-not-found');
    const venue = await t.http
      .post('/cal/events/v1/venues')
      .set('Authorization', as('editor'))
      .send({ venue: 'V' })
      .expect(201);
    expect(
      (
        await t.http
          .patch(`${base}/${venue.body.id}`)
          .set('Authorization', as('editor'))
          .send({ title: 'x' })
          .expect(400)
      ).body.code,
    ).toBe('rest-invalid-event-id');
    expect(
      (await t.http.delete(`${base}/${venue.body.id}`).set('Authorization', as('editor')).expect(400)).body.code,
    ).toBe('rest-invalid-event-id');
  });

  it('trashes with 200, answers 410 the second time, deletes for good with force (editors only)', async () => {
    const event = await postEvent(t, as('author'), { categories: ['Trashcount'] });
    const categoryId = (event.categories as { id: number }[])[0].id;
    await t.http.delete(`${base}/${event.id}`).set('Authorization', as('contributor')).expect(403);
    const trashed = await t.http.delete(`${base}/${event.id}`).set('Authorization', as('author')).expect(200);
    expect(trashed.body).toMatchObject({ id: event.id, status: 'trash' });
    expect((await t.http.get(`/cal/events/v1/categories/${categoryId}`).expect(200)).body.count).toBe(0);
    expect((await t.http.delete(`${base}/${event.id}`).set('Authorization', as('author')).expect(410)).body.code).toBe(
      'event-is-in-trash',
    );
    await t.http.delete(`${base}/${event.id}?force=true`).set('Authorization', as('author')).expect(403);
    await t.http.delete(`${base}/${event.id}?force=1`).set('Authorization', as('editor')).expect(200);
    await t.http.get(`${base}/${event.id}`).set('Authorization', as('editor')).expect(404);
  });

  it('deletes by slug', async () => {
    const event = await postEvent(t, as('editor'));
    const res = await t.http.delete(`${base}/by-slug/${event.slug}`).set('Authorization', as('editor')).expect(200);
    expect(res.body.status).toBe('trash');
  });
});
