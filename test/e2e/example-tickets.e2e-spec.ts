import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TicketsModule } from '../../examples/tickets/tickets.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { EventDocuments } from '../../src/modules/events/derived/documents/event-documents.service';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { documentsSettled, storedBody } from '../support/statements';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const sqlUtc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * The worked example of docs/extending.md's child resource: tickets under `/events/{id}/tickets` with their
 * own table, the events' `tickets` member (which turns with the clock) and the contract's `ticketed` filter,
 * from declarations and registrations only.
 */
describe('tickets: a child resource, an event field and a list filter from a module', () => {
  let t: TestApp;
  let editor: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  const clock = new SteppingClock();

  beforeAll(async () => {
    t = await createTestApp({ modules: [...CALENDAR_MODULES, TicketsModule], clock, env: { RESPONSE_CACHE_MB: '0' } });
    editor = await createUser(t, 'editor');
    author = await createUser(t, 'author');
    otherAuthor = await createUser(t, 'author');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('authorises ticket routes by the event: who may edit it may write them, who may read it may read them', async () => {
    const own = await postEvent(t, author.auth, { title: 'Author show' });
    const draft = await postEvent(t, editor.auth, { title: 'Draft show', status: 'draft' });
    const ticket = { name: 'Standard', price: '10€', capacity: 50 };
    const tickets = (id: number) => `${ns}/events/${id}/tickets`;
    expect((await t.http.post(tickets(own.id)).send(ticket).expect(401)).body.code).toBe('rest_forbidden');
    await t.http.post(tickets(own.id)).set('Authorization', otherAuthor.auth).send(ticket).expect(403);
    await t.http.post(tickets(999_999)).set('Authorization', editor.auth).send(ticket).expect(404);
    const created = await t.http.post(tickets(own.id)).set('Authorization', author.auth).send(ticket).expect(201);
    expect(created.body).toMatchObject({
      event_id: own.id,
      name: 'Standard',
      price: '10€',
      capacity: 50,
      on_sale: true,
    });
    await t.http.post(tickets(draft.id)).set('Authorization', editor.auth).send(ticket).expect(201);
    // Reads answer as the event's own read does, for every caller.
    for (const auth of [undefined, otherAuthor.auth, editor.auth]) {
      for (const id of [own.id, draft.id]) {
        const event = t.http.get(`${ns}/events/${id}`);
        const list = t.http.get(tickets(id));
        const [e, l] = await Promise.all(
          auth ? [event.set('Authorization', auth), list.set('Authorization', auth)] : [event, list],
        );
        expect(l.status).toBe(e.status);
        if (l.status === 200) expect(l.headers['x-wp-total']).toBe('1');
      }
    }
    const path = `${tickets(own.id)}/${(created.body as { id: number }).id}`;
    await t.http.put(path).set('Authorization', otherAuthor.auth).send({ price: '1€' }).expect(403);
    expect(
      (await t.http.patch(path).set('Authorization', author.auth).send({ price: '12€' }).expect(200)).body.price,
    ).toBe('12€');
    // A ticket of another event is no ticket of this one.
    const wrong = await t.http
      .get(`${tickets(draft.id)}/${(created.body as { id: number }).id}`)
      .set('Authorization', editor.auth);
    expect([wrong.status, wrong.body.code]).toEqual([404, 'rest-ticket-not-found']);
    await t.http.delete(path).set('Authorization', author.auth).expect(200);
    await t.http.get(path).expect(404);
    // A page past the end of the list is the child's own 404, as every list answers it.
    const beyond = await t.http.get(`${tickets(own.id)}?page=3`).expect(404);
    expect(beyond.body.code).toBe('ticket-archive-page-not-found');
  });

  it("answers the module's own errors and validation reasons in the caller's language", async () => {
    const event = await postEvent(t, editor.auth);
    const bad = { name: 'Late', sale_start: '2030-06-02 10:00:00', sale_end: '2030-06-01 10:00:00' };
    const en = await t.http
      .post(`${ns}/events/${event.id}/tickets`)
      .set('Authorization', editor.auth)
      .send(bad)
      .expect(400);
    expect(en.body.data.params.sale_end).toBe('must not be before sale_start');
    const de = await t.http
      .post(`/de${ns}/events/${event.id}/tickets`)
      .set('Authorization', editor.auth)
      .send(bad)
      .expect(400);
    expect(de.body.data.params.sale_end).toBe('darf nicht vor sale_start liegen');
    for (const body of [
      null,
      { name: null },
      { name: 'x', capacity: 'many' },
      { name: 'x', capacity: -1 },
      { name: ['x'] },
    ]) {
      await t.http
        .post(`${ns}/events/${event.id}/tickets`)
        .set('Authorization', editor.auth)
        .send(body ?? 'null')
        .type('json')
        .expect(400);
    }
    const missing = await t.http.get(`/de${ns}/events/${event.id}/tickets/123456`).expect(404);
    expect(missing.body).toMatchObject({
      code: 'rest-ticket-not-found',
      message: 'Die Veranstaltung hat kein solches Ticket.',
    });
  });

  it('filters events by ticketed= for every caller, with exact totals', async () => {
    const window = 'start_date=2031-02-01&end_date=2031-02-28';
    const withTickets = await postEvent(t, editor.auth, {
      title: 'With',
      start_date: '2031-02-03 10:00',
      end_date: '2031-02-03 11:00',
    });
    await postEvent(t, editor.auth, { title: 'Without', start_date: '2031-02-04 10:00', end_date: '2031-02-04 11:00' });
    const draftWith = await postEvent(t, editor.auth, {
      title: 'Draft with',
      status: 'draft',
      start_date: '2031-02-05 10:00',
      end_date: '2031-02-05 11:00',
    });
    for (const id of [withTickets.id, draftWith.id])
      await t.http
        .post(`${ns}/events/${id}/tickets`)
        .set('Authorization', editor.auth)
        .send({ name: 'Entry' })
        .expect(201);
    const titles = async (query: string, auth?: string) => {
      const req = t.http.get(`${ns}/events?${window}&${query}`);
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      return [res.headers['x-wp-total'], (res.body.events as { title: string }[]).map((e) => e.title)];
    };
    expect(await titles('ticketed=true')).toEqual(['1', ['With']]);
    expect(await titles('ticketed=false')).toEqual(['1', ['Without']]);
    expect(await titles('ticketed=true&status=publish,draft', editor.auth)).toEqual(['2', ['With', 'Draft with']]);
    expect(await titles('ticketed=false', editor.auth)).toEqual(['1', ['Without']]);
    const listed = (await t.http.get(`${ns}/events?${window}&ticketed=true`).expect(200)).body.events as {
      tickets: unknown;
    }[];
    expect(listed[0].tickets).toEqual({ count: 1, on_sale: true, changes_utc: null });
  });

  it('marks the event changed by a ticket write: its ETag, the change feed and its stored document follow', async () => {
    const event = await postEvent(t, editor.auth, { title: 'Changing' });
    await t.http.get(`${ns}/events/${event.id}`).expect(200);
    await documentsSettled(t);
    const before = await t.http.get(`${ns}/events/${event.id}`).expect(200);
    const token = (await t.http.get(`${ns}/changes`).set('Authorization', editor.auth).expect(200)).body
      .next_token as string;
    await t.http
      .post(`${ns}/events/${event.id}/tickets`)
      .set('Authorization', editor.auth)
      .send({ name: 'VIP' })
      .expect(201);
    const after = await t.http.get(`${ns}/events/${event.id}`).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.tickets).toMatchObject({ count: 1 });
    const changes = (await t.http.get(`${ns}/changes?since=${token}`).set('Authorization', editor.auth).expect(200))
      .body.changes as { resource: string; id: number; action: string }[];
    expect(changes).toContainEqual(expect.objectContaining({ resource: 'event', id: event.id, action: 'updated' }));
  });

  it('never serves a stored document past the instant its tickets go on sale', async () => {
    const opens = new Date(clock.now().getTime() + 3_600_000);
    const event = await postEvent(t, editor.auth, { title: 'Presale' });
    await t.http
      .post(`${ns}/events/${event.id}/tickets`)
      .set('Authorization', editor.auth)
      .send({ name: 'Early', sale_start: sqlUtc(opens) })
      .expect(201);
    await t.http.get(`${ns}/events/${event.id}`).expect(200);
    await documentsSettled(t);
    const row = (await storedBody(t, event.id))!;
    // Stored, and stored with the instant it stops holding.
    expect(row.until).toBe(sqlUtc(opens));
    expect(JSON.parse(row.body).tickets).toEqual({ count: 1, on_sale: false, changes_utc: sqlUtc(opens) });
    const read = async () =>
      (await t.http.get(`${ns}/events/${event.id}`).expect(200)).body.tickets as { on_sale: boolean };
    const listed = async () =>
      (
        (await t.http.get(`${ns}/events?include=${event.id}`).expect(200)).body.events as {
          tickets: { on_sale: boolean };
        }[]
      )[0].tickets;
    expect((await read()).on_sale).toBe(false);
    expect((await listed()).on_sale).toBe(false);
    clock.advance(3_600_000 + 1000);
    expect(await read()).toEqual({ count: 1, on_sale: true, changes_utc: null });
    expect((await listed()).on_sale).toBe(true);
    // Built again for the new instant, and that one holds until a write.
    await documentsSettled(t);
    const again = (await storedBody(t, event.id))!;
    expect(again.until).toBeNull();
  });

  it('gives every instance the same document format with a module field registered', async () => {
    // A second instance on the same database: its field's services hold state of their own (connections,
    // listeners), which must not make its stored documents unusable to the first.
    const other = await createTestApp({ modules: [...CALENDAR_MODULES, TicketsModule], database: t.database });
    try {
      await other.http.get(`${ns}/events`).expect(200);
      expect(other.app.get(EventDocuments).format).toBe(t.app.get(EventDocuments).format);
    } finally {
      await other.close();
    }
  });

  it('deletes the tickets with their event', async () => {
    const event = await postEvent(t, editor.auth);
    await t.http
      .post(`${ns}/events/${event.id}/tickets`)
      .set('Authorization', editor.auth)
      .send({ name: 'Gone' })
      .expect(201);
    await t.http.delete(`${ns}/events/${event.id}?force=true`).set('Authorization', editor.auth).expect(200);
    const [{ n }] = await t.dataSource.query<
      {
        n: number | string;
      }[]
    >('SELECT COUNT(*) AS n FROM event_tickets WHERE event_id = ?', [event.id]);
    expect(Number(n)).toBe(0);
  });
});
