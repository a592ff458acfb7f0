import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TicketsModule } from '../../examples/tickets/tickets.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { WebhookWorker } from '../../src/modules/webhooks/webhook-worker';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { SessionsModule } from '../support/sessions.module';
import { createUser, type TestUser } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

const ns = '/cal/events/v1';

/**
 * A child resource is the event's equal: the same answers to every caller (the password included), lost-update
 * protection, and a change of a child is a change of the event. Tickets refuse an event's move that would leave
 * them outside it; the sessions of test/support report such records instead.
 */
describe('child resources of events', () => {
  let t: TestApp;
  let editor: TestUser;
  let contributor: TestUser;
  let admin: TestUser;
  const receiver = new WebhookReceiver();
  const clock = new SteppingClock();

  const as = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, auth?: string) => {
    // One host for every request: the event's links, and so its ETag, name it.
    const req = t.http[method](`${ns}${path}`).set('Host', 'cal.example');
    return auth ? req.set('Authorization', auth) : req;
  };

  beforeAll(async () => {
    const url = await receiver.start();
    t = await createTestApp({
      modules: [...CALENDAR_MODULES, TicketsModule, SessionsModule],
      clock,
      env: {
        RESPONSE_CACHE_MB: '0',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_WORKER: 'true',
        WEBHOOKS_POLL_SECONDS: '3600',
      },
    });
    editor = await createUser(t, 'editor');
    contributor = await createUser(t, 'contributor');
    admin = await createUser(t, 'administrator');
    await as('post', '/webhooks', admin.auth)
      .send({ url, events: ['event.updated'] })
      .expect(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('answers every caller exactly as the event does, and the password opens the children too', async () => {
    const events = [
      await postEvent(t, editor.auth, { title: 'Open' }),
      await postEvent(t, editor.auth, { title: 'Protected', password: 'sesame' }),
      await postEvent(t, editor.auth, { title: 'Draft', status: 'draft' }),
      await postEvent(t, editor.auth, { title: 'Private', status: 'private' }),
      await postEvent(t, editor.auth, { title: 'Pending', status: 'pending' }),
      await postEvent(t, contributor.auth, { title: 'Own draft', status: 'draft' }),
    ];
    const trashed = await postEvent(t, editor.auth, { title: 'Trashed' });
    const childIds = new Map<number, number[]>();
    for (const event of [...events, trashed]) {
      const ticket = await as('post', `/events/${event.id}/tickets`, editor.auth).send({ name: 'Seat' }).expect(201);
      const session = await as('post', `/events/${event.id}/sessions`, editor.auth).send({ title: 'Talk' }).expect(201);
      childIds.set(event.id, [ticket.body.id as number, session.body.id as number]);
    }
    await as('delete', `/events/${trashed.id}`, editor.auth).expect(200);
    const seen: string[] = [];
    for (const auth of [undefined, contributor.auth, editor.auth]) {
      for (const event of [...events, trashed, { id: 999_999 }]) {
        for (const password of ['', '?password=sesame', '?password=wrong']) {
          const read = await as('get', `/events/${event.id}${password}`, auth);
          const [ticket, session] = childIds.get(event.id) ?? [1, 1];
          const paths = [
            `/events/${event.id}/tickets${password}`,
            `/events/${event.id}/tickets/${ticket}${password}`,
            `/events/${event.id}/sessions${password}`,
            `/events/${event.id}/sessions/${session}${password}`,
          ];
          for (const path of paths) {
            const child = await as('get', path, auth);
            expect([path, auth ?? 'anonymous', child.status]).toEqual([path, auth ?? 'anonymous', read.status]);
            if (read.status !== 200) expect(child.body.code).toBe(read.body.code);
          }
          seen.push(`${read.status} ${read.body.code ?? ''}`.trim());
        }
      }
    }
    // The sweep met every answer a read can give: open, protected, not accessible, trashed and missing.
    expect([...new Set(seen)].sort()).toEqual([
      '200',
      '403 event-no-longer-available',
      '403 event-not-accessible',
      '403 event-password-protected',
      '404 rest-event-not-found',
    ]);
  });

  it('honours If-Match on child writes: the child as read for changes, the event as read for a create', async () => {
    const event = await postEvent(t, editor.auth, { title: 'Guarded' });
    const created = await as('post', `/events/${event.id}/sessions`, editor.auth).send({ title: 'A' }).expect(201);
    const path = `/events/${event.id}/sessions/${created.body.id as number}`;
    const bogus = '"bogus"';
    for (const method of ['post', 'put', 'patch'] as const) {
      const res = await as(method, path, editor.auth).set('If-Match', bogus).send({ title: 'B' });
      expect([method, res.status, res.body.code]).toEqual([method, 412, 'rest_precondition_failed']);
    }
    await as('delete', path, editor.auth).set('If-Match', bogus).expect(412);
    const current = (await as('get', path).expect(200)).headers.etag;
    await as('put', path, editor.auth).set('If-Match', current).send({ title: 'B' }).expect(200);
    // The tag it had before the change is no longer current.
    await as('patch', path, editor.auth).set('If-Match', current).send({ title: 'C' }).expect(412);
    expect((await as('get', path).expect(200)).body.title).toBe('B');
    await as('post', `/events/${event.id}/sessions`, editor.auth).set('If-Match', bogus).send({}).expect(412);
    // The event as this caller reads it: what its own `If-Match` on the event would name.
    const eventTag = (await as('get', `/events/${event.id}`, editor.auth).expect(200)).headers.etag;
    await as('post', `/events/${event.id}/sessions`, editor.auth).set('If-Match', eventTag).send({}).expect(201);
    // The create moved the event's tag, so the same condition now fails.
    await as('post', `/events/${event.id}/sessions`, editor.auth).set('If-Match', eventTag).send({}).expect(412);
    const latest = (await as('get', path).expect(200)).headers.etag;
    await as('delete', path, editor.auth).set('If-Match', latest).expect(200);
    await as('get', path).expect(404);
  });

  it("moves the event's modified and ETag with every child write, in the change feed and in webhooks", async () => {
    const event = await postEvent(t, editor.auth, { title: 'Followed' });
    const token = (await as('get', '/changes', editor.auth).expect(200)).body.next_token as string;
    receiver.received.length = 0;
    let before = await as('get', `/events/${event.id}`).expect(200);
    const session = await as('post', `/events/${event.id}/sessions`, editor.auth).send({ title: 'X' }).expect(201);
    const path = `/events/${event.id}/sessions/${session.body.id as number}`;
    for (const write of [
      () => as('patch', path, editor.auth).send({ title: 'Y' }),
      () => as('delete', path, editor.auth),
      () => as('post', `/events/${event.id}/sessions`, editor.auth).send({ title: 'Z' }),
    ]) {
      clock.advance(61_000);
      expect((await write()).status).toBeLessThan(300);
      const after = await as('get', `/events/${event.id}`).expect(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body.modified_utc > before.body.modified_utc).toBe(true);
      before = after;
    }
    const changes = (await as('get', `/changes?since=${token}`, editor.auth).expect(200)).body.changes as {
      resource: string;
      id: number;
      action: string;
    }[];
    expect(changes).toContainEqual(expect.objectContaining({ resource: 'event', id: event.id, action: 'updated' }));
    for (let round = 0; round < 40; round++) {
      const { outcomes } = await t.app.get(WebhookWorker).runOnce();
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'",
      );
      if (Number(n) === 0) break;
      if (outcomes.length === 0) clock.advance(3_600_000);
    }
    expect(receiver.received.filter((r) => r.json.data.id === event.id).map((r) => r.json.type)).toEqual([
      'event.updated',
      'event.updated',
      'event.updated',
      'event.updated',
    ]);
  });

  it('refuses an event move that leaves tickets on sale after it ends, and a ticket sold past its end', async () => {
    const event = await postEvent(t, editor.auth, {
      start_date: '2030-06-01 18:00:00',
      end_date: '2030-06-01 23:00:00',
      timezone: 'UTC',
    });
    const tickets = `/events/${event.id}/tickets`;
    const late = await as('post', tickets, editor.auth).send({ name: 'Late', sale_end: '2030-06-02 10:00:00' });
    expect([late.status, late.body.data?.params?.sale_end]).toEqual([400, 'must not be after the event ends']);
    const ticket = await as('post', tickets, editor.auth)
      .send({ name: 'Door', sale_end: '2030-06-01 22:00:00' })
      .expect(201);
    await as('patch', `${tickets}/${ticket.body.id as number}`, editor.auth)
      .send({ sale_end: '2030-06-01 23:30:00' })
      .expect(400);
    const moved = await as('post', `/events/${event.id}`, editor.auth).send({ end_date: '2030-06-01 21:00:00' });
    expect(moved.status).toBe(400);
    expect(moved.body.data.params.end_date).toBe(`would leave tickets ${ticket.body.id as number} outside the event`);
    const unchanged = await as('get', `/events/${event.id}`).expect(200);
    expect(unchanged.body.end_date).toBe('2030-06-01 23:00:00');
    // A move that keeps them inside goes ahead.
    await as('post', `/events/${event.id}`, editor.auth).send({ end_date: '2030-06-02 01:00:00' }).expect(200);
  });

  it('lets an event move away from its sessions and reports them as outside_event', async () => {
    const event = await postEvent(t, editor.auth, {
      start_date: '2030-07-01 09:00:00',
      end_date: '2030-07-01 17:00:00',
      timezone: 'UTC',
    });
    const sessions = `/events/${event.id}/sessions`;
    await as('post', sessions, editor.auth).send({ start: '2030-07-02 09:00:00' }).expect(400);
    const early = await as('post', sessions, editor.auth).send({ start: '2030-07-01 10:00:00' }).expect(201);
    expect(early.body.outside_event).toBe(false);
    await as('post', sessions, editor.auth).send({ start: '2030-07-01 16:00:00' }).expect(201);
    await as('post', `/events/${event.id}`, editor.auth).send({ end_date: '2030-07-01 12:00:00' }).expect(200);
    const list = (await as('get', sessions).expect(200)).body.sessions as { start: string; outside_event: boolean }[];
    expect(list.map((s) => [s.start, s.outside_event])).toEqual([
      ['2030-07-01 10:00:00', false],
      ['2030-07-01 16:00:00', true],
    ]);
  });
});
