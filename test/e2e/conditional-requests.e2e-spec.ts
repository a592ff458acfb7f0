import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const HOST = 'calendar.test';

interface Resource {
  name: string;
  create: Record<string, unknown>;
  change: Record<string, unknown>;
  /** DELETE needs `force` (terms are deleted for good). */
  force: boolean;
}

const RESOURCES: Resource[] = [
  {
    name: 'events',
    create: { title: 'Conditional', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 12:00:00' },
    change: { title: 'Changed' },
    force: false,
  },
  { name: 'venues', create: { venue: 'Conditional Hall' }, change: { city: 'Bonn' }, force: false },
  { name: 'organizers', create: { organizer: 'Conditional Owls' }, change: { phone: '123' }, force: false },
  { name: 'categories', create: { name: 'Conditional' }, change: { description: 'changed' }, force: true },
  { name: 'tags', create: { name: 'conditional' }, change: { description: 'changed' }, force: true },
];

for (const cache of ['on', 'off'] as const) {
  /**
   * Conditional requests (RFC 9110 §13) on every resource: strong ETags and Last-Modified on single
   * reads with 304, weak ETags on lists with 304, and writes that honour If-Match and
   * If-Unmodified-Since with 412 — with the response cache on and off.
   */
  describe(`conditional requests (response cache ${cache})`, () => {
    let t: TestApp;
    let editor: TestUser;
    const clock = new SteppingClock();

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.http.get(url).set({ Host: HOST, Authorization: editor.auth, ...headers });
    const write = (method: 'post' | 'delete', url: string, headers: Record<string, string>, body?: object) =>
      t.http[method](url)
        .set({ Host: HOST, Authorization: editor.auth, ...headers })
        .send(body);
    let made = 0;
    /** Names differ per record: terms refuse a second of the same name. */
    const bodyOf = (r: Resource) =>
      Object.fromEntries(
        Object.entries(r.create).map(([k, v]) => [
          k,
          ['title', 'venue', 'organizer', 'name'].includes(k) ? `${String(v)} ${++made}` : v,
        ]),
      );
    const create = async (r: Resource): Promise<number> =>
      (await write('post', `${ns}/${r.name}`, {}, bodyOf(r)).expect(201)).body.id as number;

    beforeAll(async () => {
      t = await createTestApp({ clock, env: { RESPONSE_CACHE_MB: cache === 'on' ? '8' : '0' } });
      editor = await createUser(t, 'editor');
    });
    afterAll(async () => {
      await t.close();
    });

    describe.each(RESOURCES)('$name', (r) => {
      it('answers single reads with a strong ETag and Last-Modified, and 304 for either validator', async () => {
        const id = await create(r);
        clock.nextSecond();
        const first = await get(`${ns}/${r.name}/${id}`).expect(200);
        const tag = first.headers.etag;
        expect(tag).toMatch(/^"[^"]+"$/);
        expect(first.headers['last-modified']).toMatch(/GMT$/);
        await get(`${ns}/${r.name}/${id}`, { 'If-None-Match': tag }).expect(304);
        await get(`${ns}/${r.name}/${id}`, { 'If-Modified-Since': first.headers['last-modified'] }).expect(304);
        const again = await get(`${ns}/${r.name}/${id}`).expect(200);
        expect(again.headers.etag).toBe(tag);
      });

      it('answers lists with a weak ETag and 304', async () => {
        const list = await get(`${ns}/${r.name}`).expect(200);
        expect(list.headers.etag).toMatch(/^W\/"/);
        await get(`${ns}/${r.name}`, { 'If-None-Match': list.headers.etag }).expect(304);
      });

      it('updates with a current If-Match, refuses a stale or weak one with 412 and changes nothing', async () => {
        const id = await create(r);
        const tag = (await get(`${ns}/${r.name}/${id}`).expect(200)).headers.etag;
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': tag }, r.change).expect(200);
        const changed = await get(`${ns}/${r.name}/${id}`).expect(200);
        expect(changed.headers.etag).not.toBe(tag);
        const stale = await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': tag }, { ...r.change }).expect(412);
        expect(stale.body).toMatchObject({ code: 'rest_precondition_failed', data: { status: 412 } });
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': `W/${changed.headers.etag}` }, r.change).expect(412);
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': 'not a tag' }, r.change).expect(412);
        expect((await get(`${ns}/${r.name}/${id}`).expect(200)).headers.etag).toBe(changed.headers.etag);
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': `"x", ${changed.headers.etag}` }, r.change).expect(
          200,
        );
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': '*' }, r.change).expect(200);
      });

      it('answers a create and an update with the ETag the next GET gives, usable for the next If-Match', async () => {
        const created = await write('post', `${ns}/${r.name}`, {}, bodyOf(r)).expect(201);
        const id = created.body.id as number;
        expect(created.headers.etag).toBe((await get(`${ns}/${r.name}/${id}`).expect(200)).headers.etag);
        const updated = await write(
          'post',
          `${ns}/${r.name}/${id}`,
          { 'If-Match': created.headers.etag },
          r.change,
        ).expect(200);
        expect(updated.headers.etag).toBe((await get(`${ns}/${r.name}/${id}`).expect(200)).headers.etag);
        expect(updated.body).toEqual((await get(`${ns}/${r.name}/${id}`).expect(200)).body);
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Match': updated.headers.etag }, { ...r.change }).expect(200);
      });

      it('honours If-Unmodified-Since on updates and deletes', async () => {
        const id = await create(r);
        clock.nextSecond();
        const lastModified = (await get(`${ns}/${r.name}/${id}`).expect(200)).headers['last-modified'];
        const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Unmodified-Since': before }, r.change).expect(412);
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Unmodified-Since': lastModified }, r.change).expect(200);
        // Changed in this very second: later than the date the client holds.
        await write('delete', `${ns}/${r.name}/${id}${r.force ? '?force=true' : ''}`, {
          'If-Unmodified-Since': lastModified,
        }).expect(412);
        // A date that is no HTTP date is ignored.
        await write('post', `${ns}/${r.name}/${id}`, { 'If-Unmodified-Since': 'yesterday' }, r.change).expect(200);
      });

      it('deletes with a current If-Match only', async () => {
        const id = await create(r);
        const tag = (await get(`${ns}/${r.name}/${id}`).expect(200)).headers.etag;
        const url = `${ns}/${r.name}/${id}${r.force ? '?force=true' : ''}`;
        await write('delete', url, { 'If-Match': '"stale"' }).expect(412);
        await write('delete', url, { 'If-Match': tag }).expect(200);
      });
    });

    it('gives by-slug reads and writes the same validators and checks as by id', async () => {
      const event = await postEvent(t, editor.auth, { title: 'Slugged conditional' });
      const byId = await get(`${ns}/events/${event.id}`).expect(200);
      const bySlug = await get(`${ns}/events/by-slug/${event.slug}`).expect(200);
      expect(bySlug.headers.etag).toMatch(/^"/);
      await get(`${ns}/events/by-slug/${event.slug}`, { 'If-None-Match': bySlug.headers.etag }).expect(304);
      const url = `${ns}/events/by-slug/${event.slug}`;
      await write('post', url, { 'If-Match': '"stale"' }, { title: 'Never' }).expect(412);
      await write('post', url, { 'If-Match': byId.headers.etag }, { title: 'Slugged, changed' }).expect(200);
    });

    it('changes an event’s ETag when its venue is renamed, so an If-Match from before fails', async () => {
      const event = await postEvent(t, editor.auth, { venue: { venue: 'Embedded Hall' } });
      const tag = (await get(`${ns}/events/${event.id}`).expect(200)).headers.etag;
      const venueId = (event.venue as { id: number }).id;
      await write('post', `${ns}/venues/${venueId}`, {}, { venue: 'Renamed Hall' }).expect(200);
      expect((await get(`${ns}/events/${event.id}`).expect(200)).headers.etag).not.toBe(tag);
      await write('post', `${ns}/events/${event.id}`, { 'If-Match': tag }, { title: 'Lost update' }).expect(412);
    });

    it('lets exactly one of two writers holding the same ETag win', async () => {
      const event = await postEvent(t, editor.auth);
      const tag = (await get(`${ns}/events/${event.id}`).expect(200)).headers.etag;
      const statuses = await Promise.all(
        ['First', 'Second'].map(
          async (title) => (await write('post', `${ns}/events/${event.id}`, { 'If-Match': tag }, { title })).status,
        ),
      );
      expect(statuses.sort()).toEqual([200, 412]);
    });
  });
}
