import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const WINDOW = { start_date: '2030-01-01', end_date: '2031-01-01', per_page: 50 };

async function seed(t: TestApp, editor: TestUser): Promise<Record<string, number>> {
  const places: [string, Record<string, unknown>][] = [
    ['Berlin', { venue: 'Berlin Hall', geo_lat: 52.52, geo_lng: 13.405 }],
    ['Potsdam', { venue: 'Potsdam Hall', geo_lat: 52.3906, geo_lng: 13.0645 }], // 27 km from Berlin
    ['Hamburg', { venue: 'Hamburg Hall', geo_lat: 53.5511, geo_lng: 9.9937 }], // 255 km
    ['Nowhere', { venue: 'Hall without coordinates' }],
  ];
  const events: Record<string, number> = {};
  for (const [name, venue] of places) {
    events[name] = (await postEvent(t, editor.auth, { title: `${name} night`, venue })).id;
  }
  return events;
}

const titles = (body: { events: { title: string }[] }) => body.events.map((e) => e.title).sort();

describe('geolocation module (GEO_ENABLED=true)', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { GEO_ENABLED: 'true' } });
    editor = await createUser(t, 'editor');
    await seed(t, editor);
  });
  afterAll(async () => {
    await t.close();
  });

  const near = (query: Record<string, unknown>) =>
    t.http
      .get(`${ns}/events`)
      .query({ ...WINDOW, ...query })
      .expect(200);

  it('stores and shows venue coordinates as given', async () => {
    const venues = await t.http.get(`${ns}/venues`).query({ search: 'Potsdam' }).expect(200);
    expect(venues.body.venues[0]).toMatchObject({ geo_lat: 52.3906, geo_lng: 13.0645 });
    const plain = await t.http.get(`${ns}/venues`).query({ search: 'without' }).expect(200);
    expect(plain.body.venues[0]).not.toHaveProperty('geo_lat');
  });

  it('finds events within the radius, 25 km by default, and echoes the radius', async () => {
    expect(titles((await near({ geoloc_lat: 52.52, geoloc_lng: 13.405 })).body)).toEqual(['Berlin night']);
    const wider = await near({ geoloc_lat: 52.52, geoloc_lng: 13.405, geoloc_radius: 30 });
    expect(titles(wider.body)).toEqual(['Berlin night', 'Potsdam night']);
    expect(wider.body.rest_url).toContain('geoloc_radius=30');
    expect(titles((await near({ geoloc_lat: 52.52, geoloc_lng: 13.405, geoloc_radius: 300 })).body)).toEqual([
      'Berlin night',
      'Hamburg night',
      'Potsdam night',
    ]);
  });

  it('filters by whether the venue has coordinates', async () => {
    expect(titles((await near({ geoloc: true })).body)).toEqual(['Berlin night', 'Hamburg night', 'Potsdam night']);
    expect(titles((await near({ geoloc: false })).body)).toEqual(['Nowhere night']);
  });

  it('refuses half a pair, out-of-range coordinates and a bad radius, naming the field', async () => {
    const half = await t.http
      .post(`${ns}/venues`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Half', geo_lat: 1 })
      .expect(400);
    expect(Object.keys(half.body.data.params)).toEqual(['geo_lng']);
    const range = await t.http
      .post(`${ns}/venues`)
      .set('Authorization', editor.auth)
      .send({ venue: 'Far', geo_lat: 91, geo_lng: 0 })
      .expect(400);
    expect(Object.keys(range.body.data.params)).toEqual(['geo_lat']);
    const radius = await t.http
      .get(`${ns}/events`)
      .query({ geoloc_lat: 1, geoloc_lng: 1, geoloc_radius: -5 })
      .expect(400);
    expect(Object.keys(radius.body.data.params)).toEqual(['geoloc_radius']);
  });
});

describe('without the geolocation module', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await seed(t, await createUser(t, 'editor'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('validates geoloc filters and ignores them (behaviour.md §7)', async () => {
    const all = await t.http
      .get(`${ns}/events`)
      .query({ ...WINDOW, geoloc_lat: 52.52, geoloc_lng: 13.405 })
      .expect(200);
    expect(all.body.events).toHaveLength(4);
    await t.http.get(`${ns}/events`).query({ geoloc_lat: 52.52 }).expect(400);
    const venue = await t.http.get(`${ns}/venues`).query({ search: 'Potsdam' }).expect(200);
    expect(venue.body.venues[0]).not.toHaveProperty('geo_lat');
  });
});
