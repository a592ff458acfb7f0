import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { expectErrorShape } from '../support/error-shape';
import { fillRoute, indexedEndpoints, resourceOf, type IndexedEndpoint } from '../support/route-catalogue';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** A valid create body per resource, so a `null` in one field is the only thing wrong. */
const CREATE_BODIES: Record<string, Record<string, unknown>> = {
  events: { title: 'Null probe', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' },
  venues: { venue: 'Null probe hall' },
  organizers: { organizer: 'Null probe org' },
  categories: { name: 'Null probe category' },
  tags: { name: 'Null probe tag' },
  webhooks: { url: 'https://93.184.216.34/hook' },
};

/**
 * JSON `null` in every write field of every write route (from the route index): never a 5xx, always
 * the documented error body when refused, and the record still readable afterwards.
 */
describe('null in every write field', () => {
  let t: TestApp;
  let editor: TestUser;
  let admin: TestUser;
  /** Webhooks are administrators' (manage_options); everything else an editor writes. */
  const authFor = (resource: string) => (resource === 'webhooks' ? admin.auth : editor.auth);
  let writes: IndexedEndpoint[];
  const records: Record<string, { id: number; slug: string }> = {};

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
    admin = await createUser(t, 'administrator');
    writes = (await indexedEndpoints(t)).filter((e) => ['POST', 'PUT', 'PATCH'].includes(e.method));
    for (const [resource, body] of Object.entries(CREATE_BODIES)) {
      const res = await t.http.post(`${ns}/${resource}`).set('Authorization', authFor(resource)).send(body).expect(201);
      records[resource] = { id: res.body.id, slug: res.body.slug ?? '' };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('covers the write routes of every resource', () => {
    expect(new Set(writes.map((w) => resourceOf(w.route)))).toEqual(new Set(Object.keys(CREATE_BODIES)));
  });

  it('answers null in each field with success or a 400 naming it, never a 5xx', async () => {
    const outcomes: string[] = [];
    for (const endpoint of writes) {
      const resource = resourceOf(endpoint.route);
      const isCreate = endpoint.route === `${ns}/${resource}`;
      const url = fillRoute(endpoint.route, records[resource]);
      for (const field of Object.keys(endpoint.args).filter((name) => !endpoint.route.includes(`(?P<${name}>`))) {
        const body = { ...(isCreate ? CREATE_BODIES[resource] : {}), [field]: null };
        if (isCreate && 'name' in body && field !== 'name') body.name = `${body.name as string} ${field}`;
        const res = await t.http[endpoint.method.toLowerCase() as 'post' | 'put' | 'patch'](url)
          .set('Authorization', authFor(resource))
          .send(body);
        const label = `${endpoint.method} ${url} ${field}=null`;
        expect([label, res.status < 500]).toEqual([label, true]);
        if (res.status >= 400) {
          expectErrorShape(res, label);
          const params = res.body.data?.params as Record<string, unknown> | string[] | undefined;
          const named = Array.isArray(params) ? params.includes(field) : params !== undefined && field in params;
          expect([label, res.body.code, named]).toEqual([label, res.body.code, true]);
        }
        outcomes.push(`${field}:${res.status}`);
      }
    }
    expect(outcomes.length).toBeGreaterThan(60);
    for (const [resource, record] of Object.entries(records)) {
      await t.http.get(`${ns}/${resource}/${record.id}`).set('Authorization', authFor(resource)).expect(200);
    }
  });

  it('clears a field with null where "" clears it', async () => {
    const venue = await t.http
      .post(`${ns}/venues`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Clearable', city: 'Lyon', phone: '123' })
      .expect(201);
    const cleared = await t.http
      .patch(`${ns}/venues/${venue.body.id}`)
      .set('Authorization', editor.auth)
      .send({ city: null })
      .expect(200);
    expect(cleared.body.city).toBeUndefined();
    expect(cleared.body.phone).toBe('123');
    const event = await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ ...CREATE_BODIES.events, categories: ['Nullable'], venue: venue.body.id, cost: '10' })
      .expect(201);
    const unlinked = await t.http
      .patch(`${ns}/events/${event.body.id}`)
      .set('Authorization', editor.auth)
      .send({ categories: null, venue: null, cost: null })
      .expect(200);
    expect([unlinked.body.categories, unlinked.body.venue, unlinked.body.cost]).toEqual([[], [], '']);
  });

  it('refuses null where nothing can be cleared, naming the field', async () => {
    const res = await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ ...CREATE_BODIES.events, title: null, featured: null, author: null })
      .expect(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['author', 'featured', 'title']);
  });
});
