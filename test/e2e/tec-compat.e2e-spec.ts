import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ICalCalendar } from 'ical-generator';
import ICAL from 'ical.js';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent, type EventBody } from '../support/events';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const SITE = 'https://cal.example.org';
const tec = '/wp-json/tribe/events/v1';
const TEC_URL = `${SITE}${tec}`;

type TecEvent = EventBody & {
  rest_url: string;
  utc_start_date: string;
  utc_end_date: string;
  url: string;
  venue: { id: number; venue: string; city?: string; rest_url: string } | [];
  organizer: { id: number; organizer: string; email?: string; rest_url: string }[];
  categories: { slug: string; taxonomy: string; urls: { self: string } }[];
};

/** A client written for the reference: it knows only URLs under /wp-json and follows what it is given. */
async function getJson(
  t: TestApp,
  url: string,
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }> {
  expect(url.startsWith(SITE)).toBe(true);
  const res = await t.http.get(url.slice(SITE.length));
  return {
    status: res.status,
    body: res.body as Record<string, unknown>,
    headers: res.headers,
  };
}

describe('TEC-compatible alias (/wp-json/tribe/events/v1)', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const music: EventBody[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: SITE, SITE_TIMEZONE: 'America/New_York' } });
    users = await createUsersForAllRoles(t);
    for (let i = 0; i < 5; i++) {
      music.push(
        await postEvent(t, users.editor.auth, {
          title: `Concert ${i + 1}`,
          start_date: `2027-0${i + 1}-15 20:00:00`,
          end_date: `2027-0${i + 1}-15 23:00:00`,
          categories: ['Music'],
          venue: { venue: 'Harbor Hall', city: 'Boston', country: 'United States' },
          organizer: [{ organizer: 'Harbor Society', email: 'hello@harbor.example' }],
        }),
      );
    }
    await postEvent(t, users.editor.auth, {
      title: 'Market',
      start_date: '2027-02-01 09:00:00',
      end_date: '2027-02-01 12:00:00',
      categories: ['Markets'],
    });
    // Before the requested start: a client asking from 2027 must not get it.
    await postEvent(t, users.editor.auth, {
      title: 'Old concert',
      start_date: '2026-12-20 20:00:00',
      end_date: '2026-12-20 22:00:00',
      categories: ['Music'],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is discoverable from the WordPress REST root, as clients look for it', async () => {
    const root = await getJson(t, `${SITE}/wp-json/`);
    expect(root.status).toBe(200);
    expect(root.body.namespaces).toEqual(['tribe/events/v1']);
    const routes = root.body.routes as Record<string, { namespace: string }>;
    expect(routes[`/tribe/events/v1/events`].namespace).toBe('tribe/events/v1');
    expect(Object.keys(routes).filter((r) => r.includes('cal/events'))).toEqual([]);
    const index = await getJson(t, TEC_URL);
    expect(index.body.namespace).toBe('tribe/events/v1');
    expect((index.body._links as { self: { href: string }[] }).self[0].href).toBe(TEC_URL);
  });

  it('lists upcoming events by per_page, start_date and category slug, following next_rest_url to the end', async () => {
    let url: string | undefined = `${TEC_URL}/events?per_page=2&start_date=2027-01-01&categories=music`;
    const seen: TecEvent[] = [];
    let total = -1;
    let pages = 0;
    while (url) {
      const page = await getJson(t, url);
      expect(page.status).toBe(200);
      total = Number(page.headers['x-tec-total']);
      expect(page.body.total).toBe(total);
      seen.push(...(page.body.events as TecEvent[]));
      expect((page.body.rest_url as string).startsWith(`${TEC_URL}/events?`)).toBe(true);
      url = page.body.next_rest_url as string | undefined;
      if (url) expect(url.startsWith(`${TEC_URL}/events?`)).toBe(true);
      pages++;
    }
    expect(pages).toBe(3);
    expect(total).toBe(5);
    expect(seen.map((e) => e.id)).toEqual(music.map((e) => e.id));
    for (const event of seen) {
      expect(event.rest_url).toBe(`${TEC_URL}/events/${event.id}`);
      expect(event.categories.map((c) => [c.slug, c.taxonomy])).toEqual([['music', 'tribe_events_cat']]);
      expect(event.categories[0].urls.self.startsWith(`${TEC_URL}/categories/`)).toBe(true);
    }
  });

  it('fetches an event by slug, and its embedded venue and organizer by their rest_url', async () => {
    const bySlug = await getJson(t, `${TEC_URL}/events/by-slug/${music[2].slug}`);
    expect(bySlug.status).toBe(200);
    const event = bySlug.body as TecEvent;
    const byId = await getJson(t, event.rest_url);
    expect(byId.body).toEqual(bySlug.body);
    const venue = event.venue as Exclude<TecEvent['venue'], []>;
    expect([venue.venue, venue.city]).toEqual(['Harbor Hall', 'Boston']);
    expect(venue.rest_url).toBe(`${TEC_URL}/venues/${venue.id}`);
    const venueRead = await getJson(t, venue.rest_url);
    expect(venueRead.body.venue).toBe('Harbor Hall');
    const [organizer] = event.organizer;
    expect([organizer.organizer, organizer.email]).toEqual(['Harbor Society', 'hello@harbor.example']);
    expect((await getJson(t, organizer.rest_url)).body.organizer).toBe('Harbor Society');
    const categories = await getJson(t, `${TEC_URL}/categories?per_page=50`);
    expect((categories.body.categories as { taxonomy: string }[]).map((c) => c.taxonomy)).toEqual([
      'tribe_events_cat',
      'tribe_events_cat',
    ]);
  });

  it('turns the REST list into iCalendar the way TEC-to-iCal converters do, matching the service’s own feed', async () => {
    // What such a converter does: page through the list, one VEVENT per event from the UTC dates.
    const calendar = new ICalCalendar({ name: 'converted' });
    let url: string | undefined = `${TEC_URL}/events?per_page=50&start_date=2027-01-01&end_date=2027-12-31`;
    while (url) {
      const page = await getJson(t, url);
      for (const event of page.body.events as TecEvent[]) {
        calendar.createEvent({
          id: event.global_id as string,
          start: new Date(`${event.utc_start_date.replace(' ', 'T')}Z`),
          end: new Date(`${event.utc_end_date.replace(' ', 'T')}Z`),
          summary: event.title,
          url: event.url,
          location: Array.isArray(event.venue) ? undefined : event.venue.venue,
        });
      }
      url = page.body.next_rest_url as string | undefined;
    }
    const instants = (text: string) =>
      new ICAL.Component(ICAL.parse(text))
        .getAllSubcomponents('vevent')
        .map((c) => new ICAL.Event(c))
        .map((e) => [e.uid, e.summary, e.startDate.toJSDate().toISOString(), e.endDate.toJSDate().toISOString()])
        .sort();
    const ours = await t.http.get(`${tec}/events.ics?start_date=2027-01-01&end_date=2027-12-31`).expect(200);
    ICAL.TimezoneService.reset();
    for (const zone of new ICAL.Component(ICAL.parse(ours.text)).getAllSubcomponents('vtimezone')) {
      ICAL.TimezoneService.register(zone);
    }
    expect(instants(calendar.toString())).toEqual(instants(ours.text));
    expect(instants(ours.text)).toHaveLength(6);
  });

  it('takes writes with the same credentials and answers with alias URLs', async () => {
    const res = await t.http
      .post(`${tec}/events`)
      .set('Authorization', users.editor.auth)
      .send({ title: 'Written through the alias', start_date: '2027-08-01 10:00', end_date: '2027-08-01 11:00' })
      .expect(201);
    expect(res.body.rest_url).toBe(`${TEC_URL}/events/${res.body.id}`);
    const native = await t.http.get(`/cal/events/v1/events/${res.body.id}`).expect(200);
    expect(native.body.rest_url).toBe(`${SITE}/cal/events/v1/events/${res.body.id}`);
    const anonymous = await t.http
      .post(`${tec}/events`)
      .send({ title: 'x', start_date: '2027-08-01 10:00', end_date: '2027-08-01 11:00' });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'rest_forbidden']);
  });

  it('keeps the service’s own names on its own namespace', async () => {
    const own = await t.http.get(`/cal/events/v1/events/${music[0].id}`).expect(200);
    expect(own.body.categories[0].taxonomy).toBe('cal_events_cat');
    expect(own.body.categories[0].urls.self.startsWith(`${SITE}/cal/events/v1/categories/`)).toBe(true);
  });
});

describe('TEC-compatible alias turned off (TEC_COMPAT=false)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TEC_COMPAT: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 under /wp-json, and the API where it always is', async () => {
    expect((await t.http.get('/wp-json/').expect(404)).body.code).toBe('rest_no_route');
    expect((await t.http.get(`${tec}/events`).expect(404)).body.code).toBe('rest_no_route');
    await t.http.get('/cal/events/v1/events').expect(200);
  });
});
