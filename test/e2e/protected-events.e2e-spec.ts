import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent, type EventBody } from '../support/events';
import { createUsersForAllRoles, createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const SECRET_WORD = 'zanzibarite';

/**
 * A password-protected event must not leak through side doors: search, the link filters and the
 * lists of its venues, organizers and terms show what its own object blanks only to those who may
 * edit it. Filters that name a hidden record answer as for an unknown one.
 */
describe('password-protected events: side doors', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  let otherAuthor: TestUser;
  let secret: EventBody;
  let draft: EventBody;
  let venueId: number;
  let organizerId: number;
  let categoryId: number;
  let tagId: number;
  let draftVenueId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { AUTH_FAILURE_LIMIT: '3', AUTH_LOGIN_FAILURE_LIMIT: '5', TRUST_PROXY: '1' } });
    users = await createUsersForAllRoles(t);
    otherAuthor = await createUser(t, 'author');
    secret = await postEvent(t, users.author.auth, {
      title: 'Members evening',
      description: `<p>The ${SECRET_WORD} recipe</p>`,
      password: 'open sesame',
      venue: { venue: 'Hidden Cellar' },
      organizer: [{ organizer: 'Quiet Society' }],
      categories: ['Secret Category'],
      tags: ['secret-tag'],
      all_day: true,
    });
    venueId = (secret.venue as { id: number }).id;
    organizerId = (secret.organizer as { id: number }[])[0].id;
    categoryId = (secret.categories as { id: number }[])[0].id;
    tagId = (secret.tags as { id: number }[])[0].id;
    draft = await postEvent(t, users.author.auth, { title: 'Draft plans', status: 'draft' });
    draftVenueId = (
      await t.http
        .post(`${ns}/venues`)
        .set('Authorization', users.author.auth)
        .send({ venue: 'Draft hall', status: 'draft' })
    ).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const outsiders = (): [string, string | undefined][] => [
    ['anonymous', undefined],
    ['a subscriber', users.subscriber.auth],
    ['another author', otherAuthor.auth],
  ];
  const get = (path: string, auth: string | undefined, query: Record<string, unknown> = {}) => {
    const req = t.http.get(`${ns}/${path}`).query(query);
    return auth ? req.set('Authorization', auth) : req;
  };
  const ids = (body: { events?: { id: number }[] }) => (body.events ?? []).map((e) => e.id);

  it('lists the event blanked, with all_day and the dates kept and the flags null', async () => {
    const res = await get('events', undefined, { start_date: '2030-01-01', end_date: '2031-01-01' }).expect(200);
    const listed = res.body.events.find((e: { id: number }) => e.id === secret.id);
    expect(listed).toMatchObject({
      description: '',
      all_day: true,
      start_date: '2030-05-01 00:00:00',
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      sticky: null,
      featured: null,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
    });
  });

  it.each([0, 1, 2])('hides protected content from outsider %i: search, link filters, link lists', async (n) => {
    const [who, auth] = outsiders()[n];
    const window = { start_date: '2030-01-01', end_date: '2031-01-01' };
    const probes: [string, string, Record<string, unknown>][] = [
      ['search in description', 'events', { ...window, search: SECRET_WORD }],
      ['venue filter', 'events', { ...window, venue: venueId }],
      ['organizer filter', 'events', { ...window, organizer: organizerId }],
      ['category filter', 'events', { ...window, categories: categoryId }],
      ['tag filter', 'events', { ...window, tags: tagId }],
    ];
    for (const [label, path, query] of probes) {
      const res = await get(path, auth, query).expect(200);
      expect([who, label, ids(res.body)]).toEqual([who, label, []]);
    }
    const titleSearch = await get('events', auth, { ...window, search: 'Members' }).expect(200);
    expect(ids(titleSearch.body)).toEqual([secret.id]);
    for (const [path, key, param] of [
      ['venues', 'venues', 'event'],
      ['organizers', 'organizers', 'event'],
      ['categories', 'categories', 'post'],
      ['tags', 'tags', 'event'],
    ] as const) {
      const res = await get(path, auth, { [param]: secret.id, hide_empty: 0 }).expect(200);
      expect([who, path, res.body[key], res.body.total]).toEqual([who, path, [], 0]);
    }
  });

  it.each([
    ['the author', 'author'],
    ['an editor', 'editor'],
  ] as const)('shows everything to %s', async (_who, role) => {
    const auth = users[role].auth;
    const window = { start_date: '2030-01-01', end_date: '2031-01-01' };
    expect(ids((await get('events', auth, { ...window, search: SECRET_WORD }).expect(200)).body)).toEqual([secret.id]);
    expect(ids((await get('events', auth, { ...window, venue: venueId }).expect(200)).body)).toEqual([secret.id]);
    expect(ids((await get('events', auth, { ...window, categories: categoryId }).expect(200)).body)).toEqual([
      secret.id,
    ]);
    expect((await get('venues', auth, { event: secret.id }).expect(200)).body.total).toBe(1);
    expect((await get('tags', auth, { event: secret.id }).expect(200)).body.total).toBe(1);
  });

  it.each([0, 1, 2])('answers filters naming hidden records like unknown ones (outsider %i)', async (n) => {
    const [who, auth] = outsiders()[n];
    const probes: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['events', { post_parent: draft.id }, { post_parent: 99_999_999 }],
      ['events', { venue: draftVenueId }, { venue: 99_999_999 }],
      ['venues', { event: draft.id }, { event: 99_999_999 }],
      ['organizers', { event: draft.id }, { event: 99_999_999 }],
      ['categories', { post: draft.id }, { post: 99_999_999 }],
      ['tags', { event: draft.id }, { event: 99_999_999 }],
    ];
    for (const [path, hiddenQuery, unknownQuery] of probes) {
      const hidden = await get(path, auth, hiddenQuery);
      const unknown = await get(path, auth, unknownQuery);
      const shape = (r: typeof hidden) => [r.status, r.body.code, Object.keys(r.body.data?.params ?? {})];
      expect([who, path, shape(hidden)]).toEqual([who, path, shape(unknown)]);
      expect(hidden.status).toBe(400);
    }
  });

  it('limits password guesses per event and address, before hashing, and lets others in', async () => {
    const guess = (address: string, password: string) =>
      t.http.get(`${ns}/events/${secret.id}`).query({ password }).set('X-Forwarded-For', address);
    for (let i = 0; i < 3; i++) {
      expect((await guess('203.0.113.9', `wrong ${i}`).expect(403)).body.code).toBe('event-password-protected');
    }
    const limited = await guess('203.0.113.9', 'open sesame').expect(429);
    expect(limited.body.code).toBe('rest_too_many_requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess('198.51.100.3', 'open sesame').expect(200)).body.description).toContain(SECRET_WORD);
  });

  it('limits guesses on one event from many addresses: past the event’s limit, one guess per address', async () => {
    const target = await postEvent(t, users.author.auth, {
      title: 'Rotating guesses',
      password: 'right one',
      description: `<p>${SECRET_WORD}</p>`,
    });
    const guess = (address: string, password: string) =>
      t.http.get(`${ns}/events/${target.id}`).query({ password }).set('X-Forwarded-For', address);
    let checked = 0;
    for (let a = 1; a <= 20; a++) {
      for (let i = 0; i < 10; i++) {
        const res = await guess(`203.0.113.${100 + a}`, `wrong ${a}-${i}`);
        if (res.status === 429) break;
        expect(res.status).toBe(403);
        checked++;
      }
    }
    // 3 + 3 guesses until the event's 5 misses are passed, then 1 for each of the 18 other addresses (60
    // with a limit per address only).
    expect(checked).toBe(24);
    expect((await guess('198.51.100.77', 'right one').expect(200)).body.description).toContain(SECRET_WORD);
  });

  it('counts for only_with_upcoming only the events the caller may see', async () => {
    const future = '2031-03-03 10:00';
    await postEvent(t, users.author.auth, {
      title: 'Unannounced gig',
      status: 'draft',
      start_date: future,
      end_date: future,
      venue: { venue: 'Only Draft Hall' },
      organizer: [{ organizer: 'Only Draft Org' }],
    });
    const names = async (path: 'venues' | 'organizers', auth: string | undefined) =>
      (
        (await get(path, auth, { only_with_upcoming: true, per_page: 50 }).expect(200)).body[path] as {
          venue?: string;
          organizer?: string;
        }[]
      ).map((o) => o.venue ?? o.organizer);
    for (const [, auth] of outsiders()) {
      expect(await names('venues', auth)).not.toContain('Only Draft Hall');
      expect(await names('organizers', auth)).not.toContain('Only Draft Org');
    }
    expect(await names('venues', users.author.auth)).toContain('Only Draft Hall');
    expect(await names('organizers', users.editor.auth)).toContain('Only Draft Org');
  });
});
