import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock } from '../../src/common/dates/clock';
import { ResponseCache } from '../../src/common/http/response-cache/response-cache';
import type { TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { HOST, NOW, TwoInstances, type EventJson } from '../support/two-instances';
import type { TestUser } from '../support/users';

const ns = '/cal/events/v1';

/**
 * Cached reads are exact: after each kind of write, through either of two instances on one database,
 * the very next list and single read on both instances show it, for anonymous callers and editors —
 * and reads before the write really were served from the cache.
 */
describe('read freshness with the response cache', () => {
  let f: TwoInstances;
  let a: TestApp;
  let b: TestApp;
  let editor: TestUser;
  let eventId: number;
  let venueId: number;
  let organizerId: number;
  let categoryId: number;

  beforeAll(async () => {
    f = await TwoInstances.start();
    ({ a, b, editor, eventId, venueId, organizerId, categoryId } = f);
  });
  afterAll(() => f.close());

  const callers = () => f.callers();
  const listOn = (t: TestApp, auth: string | undefined, path?: string) => f.listOn(t, auth, path);
  const singleOn = (t: TestApp, auth: string | undefined, id?: number, path?: string) => f.singleOn(t, auth, id, path);
  const expectEverywhere: TwoInstances['expectEverywhere'] = (expectation) => f.expectEverywhere(expectation);
  const inList = (list: EventJson[]) => f.inList(list);

  /** Reads every view twice, so the second comes from the cache; proves it did. */
  async function primeCaches(): Promise<void> {
    for (const t of [a, b]) {
      const cache = t.app.get(ResponseCache);
      for (const [, auth] of callers()) {
        await listOn(t, auth);
        await singleOn(t, auth);
        const hits = cache.counts.hit;
        await listOn(t, auth);
        const single = await singleOn(t, auth);
        // Only 200s are kept (the single read is refused once the event is trashed).
        expect(cache.counts.hit - hits).toBe(single.status === 200 ? 2 : 1);
      }
    }
  }

  it('sees an event edit made on the other instance', async () => {
    await primeCaches();
    await b.http
      .post(`${ns}/events/${eventId}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Harbour concert (moved indoors)' })
      .expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)?.title).toBe('Harbour concert (moved indoors)');
      expect(single.body.title).toBe('Harbour concert (moved indoors)');
    });
  });

  it('sees a venue rename in the embedded venue', async () => {
    await primeCaches();
    await a.http
      .post(`${ns}/venues/${venueId}`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Dock Hall' })
      .expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)?.venue.venue).toBe('Dock Hall');
      expect(single.body.venue.venue).toBe('Dock Hall');
    });
  });

  it("sees an organizer's new email in the embedded organizer", async () => {
    await primeCaches();
    await b.http
      .post(`${ns}/organizers/${organizerId}`)
      .set('Authorization', editor.auth)
      .send({ email: 'new@example.org' })
      .expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)?.organizer[0].email).toBe('new@example.org');
      expect(single.body.organizer[0].email).toBe('new@example.org');
    });
  });

  it('sees a category rename in the embedded terms', async () => {
    await primeCaches();
    await a.http
      .post(`${ns}/categories/${categoryId}`)
      .set('Authorization', editor.auth)
      .send({ name: 'Live music' })
      .expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)?.categories[0].name).toBe('Live music');
      expect(single.body.categories[0].name).toBe('Live music');
    });
  });

  it('blanks the event for outsiders as soon as a password is set, and not for editors', async () => {
    await primeCaches();
    await b.http
      .post(`${ns}/events/${eventId}`)
      .set('Authorization', editor.auth)
      .send({ password: 'open sesame' })
      .expect(200);
    await expectEverywhere((list, single, caller) => {
      if (caller === 'anonymous') {
        expect(inList(list)?.description).toBe('');
        expect(single.status).toBe(403);
      } else {
        expect(inList(list)?.description).toContain('Brass on the pier');
        expect(single.status).toBe(200);
      }
    });
    await b.http.post(`${ns}/events/${eventId}`).set('Authorization', editor.auth).send({ password: '' }).expect(200);
  });

  it('drops a trashed event from every list and single read', async () => {
    await primeCaches();
    await a.http.delete(`${ns}/events/${eventId}`).set('Authorization', editor.auth).expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)).toBeUndefined();
      expect(single.status).toBe(403);
      expect((single.body as unknown as { code: string }).code).toBe('event-no-longer-available');
    });
  });

  it('shows a scheduled event once its time has come, before the publisher has run', async () => {
    const gala = await postEvent(a, editor.auth, {
      title: 'Scheduled gala',
      // Due within the same minute, so only the content version's horizon (not the key's minute) can tell.
      date_utc: '2030-03-01 12:00:30',
      start_date: '2030-07-01 19:00:00',
      end_date: '2030-07-01 23:00:00',
    });
    expect(gala.status).toBe('future');
    await primeCaches();
    for (const t of [a, b]) expect((await listOn(t, undefined)).some((e) => e.id === gala.id)).toBe(false);
    for (const t of [a, b]) t.app.get(Clock).now = () => new Date('2030-03-01T12:00:31Z');
    try {
      for (const t of [a, b]) expect((await listOn(t, undefined)).some((e) => e.id === gala.id)).toBe(true);
    } finally {
      for (const t of [a, b]) t.app.get(Clock).now = () => new Date(NOW);
    }
  });

  it('answers a repeated read with 304 when the client already has it', async () => {
    const first = await a.http.get(`${ns}/venues/${venueId}`).set('Host', HOST).expect(200);
    const etag = first.headers.etag;
    // A single record's tag is strong: writes compare it (If-Match).
    expect(etag).toMatch(/^"/);
    await a.http.get(`${ns}/venues/${venueId}`).set('Host', HOST).set('If-None-Match', etag).expect(304);
    await a.http
      .post(`${ns}/venues/${venueId}`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Quay Hall' })
      .expect(200);
    const after = await a.http.get(`${ns}/venues/${venueId}`).set('Host', HOST).set('If-None-Match', etag).expect(200);
    expect(after.body.venue).toBe('Quay Hall');
  });
});
