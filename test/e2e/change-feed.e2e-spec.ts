import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChangeLogJanitor } from '../../src/core/changes/change-log.janitor';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const HOST = 'calendar.test';
const RESOURCES = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
const NOUN: Record<(typeof RESOURCES)[number], string> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

interface ChangeItem {
  resource: string;
  id: number;
  action: string;
  changed_utc: string;
  deleted: boolean;
  object?: Record<string, unknown>;
}
interface ChangesBody {
  changes: ChangeItem[];
  next_token: string;
  more: boolean;
}

/** A mirror as a syncing client keeps it: resource → id → object. */
type Mirror = Map<string, Map<number, unknown>>;

/**
 * Incremental sync (`GET /changes`): a client that takes a token, then applies every page of changes,
 * ends with exactly what the lists show it, sees each kind of change in order, never learns of records
 * it could not read, and is told to resync (410) when its token is older than the log keeps.
 */
describe('change feed', () => {
  let t: TestApp;
  let editor: TestUser;
  let author: TestUser;
  const clock = new SteppingClock();

  const get = (url: string, auth?: string) => {
    const req = t.http.get(url).set('Host', HOST);
    return auth ? req.set('Authorization', auth) : req;
  };
  const changes = async (query: Record<string, string | number>, auth?: string): Promise<ChangesBody> =>
    (await get(`${ns}/changes`, auth).query(query).expect(200)).body as ChangesBody;
  const token = async (auth?: string): Promise<string> => (await changes({}, auth)).next_token;

  /** Applies pages until the feed has no more; returns the items seen and the last token. */
  async function sync(mirror: Mirror, since: string, auth?: string, perPage = 3) {
    const seen: ChangeItem[] = [];
    let next = since;
    for (;;) {
      const page = await changes({ since: next, per_page: perPage }, auth);
      for (const item of page.changes) {
        seen.push(item);
        const kind = mirror.get(item.resource) ?? new Map<number, unknown>();
        mirror.set(item.resource, kind);
        if (item.deleted) kind.delete(item.id);
        else kind.set(item.id, item.object);
      }
      next = page.next_token;
      if (!page.more) return { seen, token: next };
    }
  }

  /** What the lists show the caller, every status the default list shows, events of any date. */
  async function listed(auth?: string): Promise<Mirror> {
    const result: Mirror = new Map();
    for (const resource of RESOURCES) {
      const window = resource === 'events' ? '&start_date=1990-01-01&end_date=2100-01-01' : '';
      const res = await get(`${ns}/${resource}?per_page=100${window}`, auth);
      const items = res.status === 404 ? [] : ((res.body as Record<string, { id: number }[]>)[resource] ?? []);
      result.set(NOUN[resource], new Map(items.map((item) => [item.id, item])));
    }
    // Events hidden from listings are in no list: a mirror reads them from /events/hidden.
    const hidden = await get(`${ns}/events/hidden?per_page=100`, auth);
    expect(hidden.status).toBe(200);
    for (const item of (hidden.body as { events: { id: number }[] }).events) result.get('event')!.set(item.id, item);
    return result;
  }

  const asSorted = (mirror: Mirror) =>
    Object.fromEntries(
      [...mirror]
        .filter(([, items]) => items.size > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([resource, items]) => [resource, [...items].sort(([a], [b]) => a - b)]),
    );

  beforeAll(async () => {
    t = await createTestApp({ clock, env: { FUTURE_POSTS_INTERVAL_SECONDS: '3600', LOG_LEVEL: 'error' } });
    editor = await createUser(t, 'editor');
    author = await createUser(t, 'author');
  });
  afterAll(async () => {
    await t.close();
  });

  it('ends with exactly the visible set after creates, updates, link changes, trash and deletes', async () => {
    const mirrors: Record<string, { auth?: string; mirror: Mirror; token: string }> = {
      anonymous: { mirror: new Map(), token: await token() },
      editor: { auth: editor.auth, mirror: new Map(), token: await token(editor.auth) },
      author: { auth: author.auth, mirror: new Map(), token: await token(author.auth) },
    };
    const concert = await postEvent(t, editor.auth, {
      venue: { venue: 'Hall', city: 'Berlin' },
      organizer: [{ organizer: 'Owls', email: 'owls@example.org' }],
      categories: ['Concerts'],
      tags: ['jazz'],
    });
    const draft = await postEvent(t, editor.auth, { status: 'draft', categories: ['Concerts'] });
    const own = await postEvent(t, author.auth, { status: 'draft' });
    const doomed = await postEvent(t, editor.auth, { tags: ['jazz'] });
    // In no list, but visible: by id, in the change feed, and in /events/hidden.
    const unlisted = await postEvent(t, editor.auth, { hide_from_listings: true, categories: ['Concerts'] });
    await postEvent(t, author.auth, { hide_from_listings: true, status: 'draft' });
    for (const m of Object.values(mirrors)) ({ token: m.token } = await sync(m.mirror, m.token, m.auth));

    const venueId = (concert.venue as { id: number }).id;
    await t.http
      .post(`${ns}/venues/${venueId}`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Great Hall' })
      .expect(200);
    const [category] = concert.categories as { id: number }[];
    await t.http
      .post(`${ns}/categories/${category.id}`)
      .set('Authorization', editor.auth)
      .send({ name: 'Gigs' })
      .expect(200);
    await t.http
      .post(`${ns}/events/${draft.id}`)
      .set('Authorization', editor.auth)
      .send({ status: 'publish' })
      .expect(200);
    await t.http.delete(`${ns}/events/${doomed.id}`).set('Authorization', editor.auth).expect(200);
    await t.http
      .post(`${ns}/events/${concert.id}`)
      .set('Authorization', editor.auth)
      .send({ status: 'draft' })
      .expect(200);
    await t.http
      .post(`${ns}/events/${own.id}`)
      .set('Authorization', author.auth)
      .send({ title: 'Mine, renamed' })
      .expect(200);
    const [tag] = doomed.tags as { id: number }[];
    await t.http.delete(`${ns}/tags/${tag.id}?force=true`).set('Authorization', editor.auth).expect(200);

    for (const [who, m] of Object.entries(mirrors)) {
      await sync(m.mirror, m.token, m.auth);
      expect([who, asSorted(m.mirror)]).toEqual([who, asSorted(await listed(m.auth))]);
    }
    expect(mirrors.anonymous.mirror.get('event')?.has(unlisted.id)).toBe(true);
    expect(mirrors.anonymous.mirror.get('event')?.has(concert.id)).toBe(false);
    expect(mirrors.editor.mirror.get('event')?.has(concert.id)).toBe(true);
    expect(
      (mirrors.anonymous.mirror.get('event')?.get(draft.id) as { categories: { name: string }[] }).categories[0].name,
    ).toBe('Gigs');
  });

  it('shows each kind of change of one record in order, when the client syncs between them', async () => {
    let since = await token(editor.auth);
    const step = async () => {
      const page = await changes({ since }, editor.auth);
      since = page.next_token;
      return page.changes.filter((c) => c.resource === 'event').map((c) => [c.action, c.deleted]);
    };
    const event = await postEvent(t, editor.auth);
    expect(await step()).toEqual([['created', false]]);
    await t.http
      .post(`${ns}/events/${event.id}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Renamed' })
      .expect(200);
    expect(await step()).toEqual([['updated', false]]);
    await t.http
      .post(`${ns}/events/${event.id}`)
      .set('Authorization', editor.auth)
      .send({ status: 'draft' })
      .expect(200);
    expect(await step()).toEqual([['status_changed', false]]);
    await t.http.delete(`${ns}/events/${event.id}`).set('Authorization', editor.auth).expect(200);
    expect(await step()).toEqual([['trashed', true]]);
    await t.http
      .post(`${ns}/events/${event.id}`)
      .set('Authorization', editor.auth)
      .send({ status: 'publish' })
      .expect(200);
    expect(await step()).toEqual([['untrashed', false]]);
    await t.http.delete(`${ns}/events/${event.id}?force=true`).set('Authorization', editor.auth).expect(200);
    expect(await step()).toEqual([['deleted', true]]);
    expect(await step()).toEqual([]);
  });

  it('keeps the order of changes across pages, one entry per record and page', async () => {
    const since = await token(editor.auth);
    const first = await postEvent(t, editor.auth);
    const second = await postEvent(t, editor.auth);
    await t.http
      .post(`${ns}/events/${first.id}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Again' })
      .expect(200);
    const { seen } = await sync(new Map(), since, editor.auth, 1);
    expect(seen.filter((c) => c.resource === 'event').map((c) => [c.id, c.action])).toEqual([
      [first.id, 'created'],
      [second.id, 'created'],
      [first.id, 'updated'],
    ]);
    const page = await changes({ since, per_page: 50, resources: 'event' }, editor.auth);
    // Within one answer a record appears once, at its last change.
    expect(page.changes.map((c) => [c.id, c.action])).toEqual([
      [second.id, 'created'],
      [first.id, 'updated'],
    ]);
  });

  it('never tells anonymous callers of drafts, not even by a tombstone', async () => {
    const since = await token();
    const hidden = await postEvent(t, editor.auth, { status: 'draft' });
    await t.http
      .post(`${ns}/events/${hidden.id}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Still hidden' })
      .expect(200);
    await t.http.delete(`${ns}/events/${hidden.id}?force=true`).set('Authorization', editor.auth).expect(200);
    const { seen } = await sync(new Map(), since);
    expect(seen.filter((c) => c.id === hidden.id && c.resource === 'event')).toEqual([]);
    const editorView = await changes({ since }, editor.auth);
    expect(editorView.changes.filter((c) => c.id === hidden.id).map((c) => c.deleted)).toEqual([true]);
  });

  it('clamps per_page to the configured maximum and refuses what is no page size', async () => {
    const since = await token(editor.auth);
    for (let i = 0; i < 3; i++) await postEvent(t, editor.auth);
    const page = await changes({ since, per_page: 1000 }, editor.auth);
    expect(page.changes.filter((c) => c.resource === 'event')).toHaveLength(3);
    expect(page.more).toBe(false);
    for (const bad of ['0', 'many', '-1']) {
      const res = await get(`${ns}/changes?since=${since}&per_page=${bad}`).expect(400);
      expect(res.body.data.params.per_page).toBeDefined();
    }
  });

  it('refuses tokens it did not write, and unknown resource kinds', async () => {
    for (const since of ['not-a-token', 'AAAA', '']) {
      const res = await get(`${ns}/changes?since=${since}`).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    const res = await get(`${ns}/changes?resources=event,speaker`).expect(400);
    expect(res.body.data.params.resources).toBeDefined();
    const future = Buffer.from('99999999.0').toString('base64url');
    expect((await get(`${ns}/changes?since=${future}`).expect(410)).body.code).toBe('rest_sync_token_expired');
  });

  it('expires tokens older than the retention with 410, and keeps newer ones working', async () => {
    const old = await token();
    await postEvent(t, editor.auth, { title: 'Old news' });
    clock.advance(31 * 24 * 3_600_000);
    const recent = await token();
    const event = await postEvent(t, editor.auth, { title: 'Fresh news' });
    expect(await t.app.get(ChangeLogJanitor).prune()).not.toBeNull();
    const expired = await get(`${ns}/changes?since=${old}`).expect(410);
    expect(expired.body).toMatchObject({ code: 'rest_sync_token_expired', data: { status: 410 } });
    const page = await changes({ since: recent });
    expect(page.changes.map((c) => [c.id, c.action])).toEqual([[event.id, 'created']]);
  });

  it('filters every list by modified_after, counting changes of what a record embeds', async () => {
    const window = 'start_date=1990-01-01&end_date=2100-01-01';
    const withVenue = await postEvent(t, editor.auth, { venue: { venue: 'Later Hall' }, tags: ['later'] });
    const untouched = await postEvent(t, editor.auth);
    clock.nextSecond();
    const mark = clock.now().toISOString();
    const venueId = (withVenue.venue as { id: number }).id;
    await t.http.post(`${ns}/venues/${venueId}`).set('Authorization', editor.auth).send({ city: 'Köln' }).expect(200);
    const category = (
      await t.http.post(`${ns}/categories`).set('Authorization', editor.auth).send({ name: 'Later' }).expect(201)
    ).body as { id: number };
    const later = await postEvent(t, editor.auth);
    const ids = async (resource: string, extra = '') =>
      (
        (
          await get(
            `${ns}/${resource}?modified_after=${encodeURIComponent(mark)}&per_page=100${extra}`,
            editor.auth,
          ).expect(200)
        ).body as Record<string, { id: number }[]>
      )[resource].map((item) => item.id);
    const events = await ids('events', `&${window}`);
    expect(events).toEqual(expect.arrayContaining([withVenue.id, later.id]));
    expect(events).not.toContain(untouched.id);
    expect(await ids('venues')).toEqual([venueId]);
    expect(await ids('categories', '&hide_empty=false')).toEqual([category.id]);
    expect(await ids('tags', '&hide_empty=false')).toEqual([]);
    const next = await get(`${ns}/events?modified_after=${encodeURIComponent(mark)}&${window}&per_page=1`, editor.auth);
    expect(next.headers.link ?? '').toContain('modified_after=');
    const bad = await get(`${ns}/events?modified_after=soon`).expect(400);
    expect(bad.body.data.params.modified_after).toBeDefined();
  });
});
