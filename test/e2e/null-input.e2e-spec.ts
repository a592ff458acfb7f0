import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { expectErrorShape } from '../support/error-shape';
import {
  collectionOf,
  fillRouteFrom,
  indexedEndpoints,
  openApiPathOf,
  resourceOf,
  type IndexedEndpoint,
} from '../support/route-catalogue';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** Per `METHOD route`: the arguments the OpenAPI document names as query parameters (`?wait=` of a run). */
const queryArgs = new Map<string, Set<string>>();
/** The fields a write route takes in its body: neither path nor query parameters. */
const bodyFields = (endpoint: IndexedEndpoint): string[] =>
  Object.keys(endpoint.args).filter(
    (name) =>
      !endpoint.route.includes(`(?P<${name}>`) && !queryArgs.get(`${endpoint.method} ${endpoint.route}`)?.has(name),
  );

type RequestBody = { content: Record<string, { example?: Record<string, unknown> }> };

/**
 * A valid create body per resource, so a `null` in one field is the only thing wrong: these for the calendar's
 * own, the OpenAPI document's request example ("Try it out") for every other collection a module registered.
 */
const CREATE_BODIES: Record<string, Record<string, unknown>> = {
  events: { title: 'Null probe', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' },
  venues: { venue: 'Null probe hall' },
  organizers: { organizer: 'Null probe org' },
  categories: { name: 'Null probe category' },
  tags: { name: 'Null probe tag' },
  webhooks: { url: 'https://93.184.216.34/hook' },
  imports: { kind: 'ical', url: 'https://93.184.216.34/calendar.ics' },
};

/**
 * JSON `null` in every write field of every write route (from the route index): never a 5xx, always
 * the documented error body when refused, and the record still readable afterwards.
 */
describe('null in every write field', () => {
  let t: TestApp;
  let editor: TestUser;
  let admin: TestUser;
  /** Webhooks and imports are administrators' (manage_options); everything else an editor writes. */
  const authFor = (resource: string) => (['webhooks', 'imports'].includes(resource) ? admin.auth : editor.auth);
  let writes: IndexedEndpoint[];
  /** Per collection route pattern: its create body and the record made with it. */
  const bodies: Record<string, Record<string, unknown>> = {};
  const records: Record<string, { id: number; slug: string }> = {};

  beforeAll(async () => {
    t = await createTestApp({ modules: await registeredModules() });
    editor = await createUser(t, 'editor');
    admin = await createUser(t, 'administrator');
    const endpoints = await indexedEndpoints(t);
    writes = endpoints.filter((e) => ['POST', 'PUT', 'PATCH'].includes(e.method));
    const doc = (await t.http.get(`${ns}/doc`).expect(200)).body as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string }[] }> & {
          post?: { responses: Record<string, unknown>; requestBody?: RequestBody };
        }
      >;
    };
    for (const w of writes) {
      const parameters = doc.paths[openApiPathOf(w.route)]?.[w.method.toLowerCase()]?.parameters ?? [];
      queryArgs.set(`${w.method} ${w.route}`, new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name)));
    }
    // Every collection that creates, parents first (a child's route is filled from its parent's record).
    const collections = [...new Set(writes.map((w) => collectionOf(w.route)))]
      .filter((route) => doc.paths[openApiPathOf(route)]?.post?.responses['201'])
      .sort((a, b) => a.split('(?P<').length - b.split('(?P<').length);
    for (const route of collections) {
      const resource = resourceOf(route);
      const example = doc.paths[openApiPathOf(route)].post?.requestBody?.content['application/json']?.example;
      const body = route === `${ns}/${resource}` && CREATE_BODIES[resource] ? CREATE_BODIES[resource] : example;
      const url = fillRouteFrom(route, records);
      if (!body || !url) continue;
      const res = await t.http.post(url).set('Authorization', authFor(resource)).send(body).expect(201);
      bodies[route] = body;
      records[route] = { id: res.body.id, slug: res.body.slug ?? '' };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('covers the write routes of every resource, the registered modules included', () => {
    expect(
      writes
        .filter((w) => bodyFields(w).length > 0 && !(collectionOf(w.route) in records))
        .map((w) => `${w.method} ${w.route}`),
    ).toEqual([]);
    for (const extension of ['speakers', 'audiences', 'events/(?P<id>\\d+)/tickets'])
      expect(Object.keys(records).some((route) => route.endsWith(extension))).toBe(true);
  });

  it('answers null in each field with success or a 400 naming it, never a 5xx', async () => {
    const outcomes: string[] = [];
    for (const endpoint of writes) {
      const resource = resourceOf(endpoint.route);
      const isCreate = endpoint.route in bodies;
      if (bodyFields(endpoint).length === 0) continue;
      const url = fillRouteFrom(endpoint.route, records)!;
      for (const field of bodyFields(endpoint)) {
        const body = { ...(isCreate ? bodies[endpoint.route] : {}), [field]: null };
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
    for (const [route, record] of Object.entries(records)) {
      const url = `${fillRouteFrom(route, records)!}/${record.id}`;
      await t.http
        .get(url)
        .set('Authorization', authFor(resourceOf(route)))
        .expect(200);
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

  it('refuses null and wrong types inside recurrence lines with a 400 naming recurrence, on create and on edit', async () => {
    const series = await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ ...CREATE_BODIES.events, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] })
      .expect(201);
    const values: unknown[] = [
      [null],
      ['RRULE:FREQ=WEEKLY;COUNT=3', null],
      [1],
      [true],
      [{}],
      [['RRULE:FREQ=DAILY;COUNT=2']],
      'RRULE:FREQ=DAILY;COUNT=2',
      { 0: 'RRULE:FREQ=DAILY;COUNT=2' },
      [''],
      ['RRULE:'],
      ['RRULE:FREQ=DAILY;COUNT='],
      ['RRULE:FREQ=DAILY;COUNT=null'],
      ['RRULE:FREQ=null'],
      ['RRULE:FREQ=DAILY;UNTIL=null'],
      ['EXDATE:null'],
      ['RDATE:'],
      ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;TZID=null:20310108T100000'],
    ];
    for (const recurrence of values) {
      const label = JSON.stringify(recurrence);
      for (const [method, url] of [
        ['post', `${ns}/events`],
        ['patch', `${ns}/events/${series.body.id}?scope=all`],
      ] as const) {
        const res = await t.http[method](url)
          .set('Authorization', editor.auth)
          .send(method === 'post' ? { ...CREATE_BODIES.events, recurrence } : { recurrence });
        expect([method, label, res.status]).toEqual([method, label, 400]);
        expectErrorShape(res, label);
        expect([method, label, Object.keys(res.body.data.params)]).toEqual([method, label, ['recurrence']]);
      }
    }
    // The series is as it was: three weekly occurrences.
    const read = await t.http.get(`${ns}/events/${series.body.id}`).expect(200);
    expect(read.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
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
