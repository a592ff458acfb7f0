import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { captureStatements, documentsSettled, withoutPort } from '../support/statements';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const base = '/cal/events/v1/events';

describe('events: read', () => {
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

  it('reads by id and by slug with json_ld', async () => {
    const event = await postEvent(t, as('editor'), {
      title: 'Summer Gala',
      timezone: 'America/New_York',
      start_date: '2030-07-04 20:00',
      end_date: '2030-07-04 23:00',
      cost: '40',
      venue: { venue: 'Gala Hall', city: 'Boston' },
      organizer: [{ organizer: 'Gala Org' }],
    });
    const byId = await t.http.get(`${base}/${event.id}`).expect(200);
    expect(byId.body.json_ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Summer Gala',
      startDate: '2030-07-04T20:00:00-04:00',
      endDate: '2030-07-04T23:00:00-04:00',
      location: { '@type': 'Place', name: 'Gala Hall' },
      organizer: [{ '@type': 'Person', name: 'Gala Org' }],
      offers: { '@type': 'Offer', price: '40', priceCurrency: 'USD' },
    });
    expect(byId.body.timezone_abbr).toBe('EDT');
    const bySlug = await t.http.get(`${base}/by-slug/summer-gala`).expect(200);
    expect(bySlug.body.id).toBe(event.id);
  });

  it('reads an event in two statements (its row, then all it embeds), in one from its document', async () => {
    const event = await postEvent(t, as('editor'), {
      title: 'Counted Read',
      venue: { venue: 'Counted Read Hall' },
      organizer: [{ organizer: 'Counted Read Org' }, { organizer: 'Counted Read Choir' }],
      categories: ['Counted Read Music'],
      tags: ['counted-b', 'counted-a'],
    });
    let body: Record<string, unknown> = {};
    const statements = await captureStatements(t, async () => {
      body = (await t.http.get(`${base}/${event.id}`).query({ fresh: 1 }).expect(200)).body as typeof body;
    });
    // Besides the response cache's version check after a write: the event row, and one UNION ALL.
    const reads = statements.filter((sql) => !/\bwrite_sequence\b|\bMIN\(/.test(sql));
    expect(reads).toHaveLength(2);
    expect(reads[1]).toMatch(/event_venues[\s\S]*event_organizers[\s\S]*term_relationships/);
    expect((body.venue as { venue: string }).venue).toBe('Counted Read Hall');
    expect((body.organizer as { organizer: string }[]).map((o) => o.organizer)).toEqual([
      'Counted Read Org',
      'Counted Read Choir',
    ]);
    expect((body.categories as { name: string; count: number }[]).map((c) => [c.name, c.count])).toEqual([
      ['Counted Read Music', 1],
    ]);
    // In their stored order (a write sorts them by name).
    expect((body.tags as { slug: string }[]).map((tag) => tag.slug)).toEqual(['counted-a', 'counted-b']);

    // Once its document is built, the event's row brings it along with its terms' counts: one statement.
    await documentsSettled(t);
    let stored: Record<string, unknown> = {};
    const storedStatements = await captureStatements(t, async () => {
      stored = (await t.http.get(`${base}/${event.id}`).query({ fresh: 2 }).expect(200)).body as typeof stored;
    });
    const storedReads = storedStatements.filter((sql) => !/\bwrite_sequence\b|\bMIN\(/.test(sql));
    expect(storedReads).toHaveLength(1);
    expect(storedReads[0]).toMatch(/GROUP_CONCAT[\s\S]*event_documents/);
    expect(withoutPort(stored)).toEqual(withoutPort(body));
  });

  it('answers an unknown id with 404, another type’s id with 400, a bad id with rest_no_route', async () => {
    expect((await t.http.get(`${base}/999999`).expect(404)).body.code).toBe('rest-event-not-found');
    expect((await t.http.get(`${base}/by-slug/no-such-event`).expect(404)).body.code).toBe('rest-event-not-found');
    const organizer = await t.http
      .post('/cal/events/v1/organizers')
      .set('Authorization', as('editor'))
      .send({ organizer: 'O' })
      .expect(201);
    const res = await t.http.get(`${base}/${organizer.body.id}`).expect(400);
    expect(res.body).toMatchObject({ code: 'rest-invalid-event-id', data: { status: 400 } });
    expect((await t.http.get(`${base}/1.5`).expect(404)).body.code).toBe('rest_no_route');
  });

  it('hides drafts, pending and scheduled events from those who may not edit them', async () => {
    const draft = await postEvent(t, as('contributor'));
    expect((await t.http.get(`${base}/${draft.id}`).expect(403)).body.code).toBe('event-not-accessible');
    await t.http.get(`${base}/${draft.id}`).set('Authorization', as('subscriber')).expect(403);
    await t.http.get(`${base}/${draft.id}`).set('Authorization', as('author')).expect(403);
    await t.http.get(`${base}/${draft.id}`).set('Authorization', as('contributor')).expect(200);
    await t.http.get(`${base}/${draft.id}`).set('Authorization', as('editor')).expect(200);
    const scheduled = await postEvent(t, as('author'), { date_utc: '2999-01-01 00:00:00' });
    await t.http.get(`${base}/${scheduled.id}`).expect(403);
    await t.http.get(`${base}/${scheduled.id}`).set('Authorization', as('author')).expect(200);
  });

  it('shows a scheduled event from its publication date on', async () => {
    const event = await postEvent(t, as('editor'), { date_utc: '2999-01-01 00:00:00' });
    await t.dataSource.query('UPDATE posts SET date_utc = ? WHERE id = ?', ['2001-01-01 00:00:00', event.id]);
    const res = await t.http.get(`${base}/${event.id}`).expect(200);
    expect(res.body.status).toBe('publish');
  });

  it('answers a trashed event with event-no-longer-available', async () => {
    const event = await postEvent(t, as('editor'));
    await t.http.delete(`${base}/${event.id}`).set('Authorization', as('editor')).expect(200);
    const res = await t.http.get(`${base}/${event.id}`).expect(403);
    expect(res.body.code).toBe('event-no-longer-available');
  });

  describe('password-protected events', () => {
    let event: { id: number; slug: string };

    beforeAll(async () => {
      event = await postEvent(t, as('author'), {
        title: 'Members Only',
        password: 's3cret pass',
        description: 'inside',
        cost: '5',
      });
    });

    it('needs the right password to be read', async () => {
      expect((await t.http.get(`${base}/${event.id}`).expect(403)).body.code).toBe('event-password-protected');
      expect((await t.http.get(`${base}/${event.id}?password=wrong`).expect(403)).body.code).toBe(
        'event-password-protected',
      );
      const open = await t.http.get(`${base}/${event.id}?password=${encodeURIComponent('s3cret pass')}`).expect(200);
      expect(open.body).toMatchObject({ description: 'inside', cost: '$5' });
      await t.http.get(`${base}/by-slug/${event.slug}`).expect(403);
    });

    it('opens without a password for those who may edit it', async () => {
      await t.http.get(`${base}/${event.id}`).set('Authorization', as('author')).expect(200);
      await t.http.get(`${base}/${event.id}`).set('Authorization', as('editor')).expect(200);
      await t.http.get(`${base}/${event.id}`).set('Authorization', as('contributor')).expect(403);
    });

    it('is listed with its content blanked', async () => {
      const res = await t.http.get(`${base}?include=${event.id}`).expect(200);
      expect(res.body.events[0]).toMatchObject({
        title: 'Members Only',
        description: '',
        excerpt: '',
        cost: '',
        website: '',
        image: false,
        cost_details: { values: [] },
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
      const editor = await t.http.get(`${base}?include=${event.id}`).set('Authorization', as('editor')).expect(200);
      expect(editor.body.events[0].description).toBe('inside');
    });

    it('loses its password when set to ""', async () => {
      await t.http.patch(`${base}/${event.id}`).set('Authorization', as('author')).send({ password: '' }).expect(200);
      expect((await t.http.get(`${base}/${event.id}`).expect(200)).body.description).toBe('inside');
    });
  });
});
