import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { indexedEndpoints, type IndexedEndpoint } from '../support/route-catalogue';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** Write fields each occurrence has of its own, or that make the series: not shared (behaviour.md §11). */
const OWN = ['start_date', 'end_date', 'timezone', 'all_day', 'slug', 'recurrence', 'status', 'password', 'image'];
/** Write fields of the post itself that every post has its own of. */
const POST_OWN = ['date', 'date_utc', 'author'];

/**
 * A value for every write field of `POST /events`, the registered modules' included, that differs from what an
 * event gets without it. A field the index declares and this table does not know fails the test: a new field
 * is checked on series before it ships.
 */
function samplesFor(ids: Record<string, number>): Record<string, unknown> {
  return {
    title: 'Shared title',
    description: '<p>Shared description</p>',
    excerpt: 'Shared excerpt',
    cost: '5 - 9',
    website: 'https://shared.example.org/',
    featured: true,
    sticky: true,
    show_map: false,
    show_map_link: false,
    hide_from_listings: true,
    post_parent: ids.parent,
    categories: ['Shared category'],
    tags: ['shared-tag'],
    venue: ids.venue,
    organizer: [ids.organizer],
    speaker: [ids.speaker],
    audiences: ['Kids'],
    capacity: 120,
  };
}

/** The properties of each VEVENT of a feed, unfolded (`NAME;PARAMS:value`). */
const veventsOf = (ics: string): string[][] =>
  ics
    .replace(/\r\n[ \t]/g, '')
    .split('BEGIN:VEVENT\r\n')
    .slice(1)
    .map((block) => block.split('\r\nEND:VEVENT')[0].split('\r\n'));
/** What each occurrence's VEVENT says of itself alone (times, identity, when written, its page), or of the series. */
const OWN_PROPERTIES =
  /^(DTSTART|DTEND|DURATION|UID|DTSTAMP|LAST-MODIFIED|SEQUENCE|CREATED|URL|RECURRENCE-ID|RRULE|RDATE|EXDATE|X-CAL-RECURRENCE)[;:]/;
const contentOf = (vevent: string[]): string[] => vevent.filter((line) => !OWN_PROPERTIES.test(line)).sort();

/** Write fields no member of the event shows, with the list filter that finds the events that have them. */
const SHOWN_BY_FILTER: Record<string, (ids: Record<string, number>) => string> = {
  post_parent: (ids) => `post_parent=${ids.parent}`,
};

/**
 * Every write field a series shares reaches every occurrence, at creation and after `scope=following` starts a
 * new series: the occurrences of a series made with one field set are compared member by member, leaving out
 * only the members that differ between the occurrences of a series made without it (dates, ids, URLs).
 */
describe('what the occurrences of a series share', () => {
  let t: TestApp;
  let admin: TestUser;
  let createFields: string[];
  const ids: Record<string, number> = {};
  let day = 0;

  const create = async (fields: Record<string, unknown>) => {
    day++;
    const start = `2031-${String(1 + Math.floor(day / 9)).padStart(2, '0')}-${String(1 + 3 * (day % 9)).padStart(2, '0')}`;
    const res = await t.http
      .post(`${ns}/events`)
      .set('Authorization', admin.auth)
      .send({
        // One title for all, so the only members a sample changes are its own.
        title: 'Series',
        start_date: `${start} 10:00:00`,
        end_date: `${start} 11:00:00`,
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
        ...fields,
      });
    expect([JSON.stringify(fields), res.status]).toEqual([JSON.stringify(fields), 201]);
    return (res.body as { id: number }).id;
  };
  /** The series' occurrences as an administrator reads them, in date order. */
  const occurrencesOf = async (first: number): Promise<Record<string, unknown>[]> => {
    const list = await t.http
      .get(
        `${ns}/events?status=publish,draft&start_date=2031-01-01&end_date=2031-12-31&per_page=50&include=${[0, 1, 2].map((k) => first + k).join(',')}`,
      )
      .set('Authorization', admin.auth)
      .expect(200);
    const found = (list.body as { events: { id: number }[] }).events.map((e) => e.id);
    const occurrences: Record<string, unknown>[] = [];
    for (const id of [...new Set([first, first + 1, first + 2, ...found])].sort((a, b) => a - b)) {
      // One Host for all (supertest listens on a new port for each request, and URLs name it).
      const res = await t.http.get(`${ns}/events/${id}`).set('Host', 'calendar.test').set('Authorization', admin.auth);
      if (res.status === 200) occurrences.push(res.body as Record<string, unknown>);
    }
    return occurrences;
  };
  /** The ids of the events `filter` finds, as an administrator lists them. */
  const idsFiltered = async (filter: string): Promise<unknown[]> =>
    (
      (
        await t.http
          .get(`${ns}/events?${filter}&start_date=2031-01-01&end_date=2031-11-30&per_page=50`)
          .set('Authorization', admin.auth)
          .expect(200)
      ).body as { events: { id: number }[] }
    ).events.map((e) => e.id);
  const differing = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));

  beforeAll(async () => {
    t = await createTestApp({ modules: await registeredModules() });
    admin = await createUser(t, 'administrator');
    const post = async (path: string, body: Record<string, unknown>) =>
      (
        (await t.http.post(`${ns}/${path}`).set('Authorization', admin.auth).send(body).expect(201)).body as {
          id: number;
        }
      ).id;
    ids.venue = await post('venues', { venue: 'Shared hall' });
    ids.organizer = await post('organizers', { organizer: 'Shared crew' });
    ids.speaker = await post('speakers', { speaker: 'Shared speaker' });
    ids.parent = await post('events', {
      title: 'Parent',
      start_date: '2031-12-01 10:00',
      end_date: '2031-12-01 11:00',
    });
    const endpoints = await indexedEndpoints(t);
    const createEvents = endpoints.find((e: IndexedEndpoint) => e.route === `${ns}/events` && e.method === 'POST')!;
    createFields = Object.keys(createEvents.args);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a sample for every write field of POST /events', () => {
    const known = new Set([...Object.keys(samplesFor(ids)), ...OWN, ...POST_OWN]);
    expect(createFields.filter((field) => !known.has(field))).toEqual([]);
  });

  it('gives every occurrence each shared field, at creation and after scope=following', async () => {
    const control = await occurrencesOf(await create({}));
    const another = await occurrencesOf(await create({}));
    expect(control).toHaveLength(3);
    // What differs between the occurrences of a plain series (their own dates, ids and URLs; when each row was
    // written, which a write of many rows may cross a second), and between two plain series (the series' id):
    // never a shared field's.
    const written = ['date', 'date_utc', 'modified', 'modified_utc'];
    const own = new Set([...written, ...differing(control[0], control[1]), ...differing(control[0], control[2])]);
    const perSeries = new Set(differing(control[0], another[0]).filter((k) => !own.has(k)));
    const checked: string[] = [];
    for (const [field, value] of Object.entries(samplesFor(ids))) {
      const occurrences = await occurrencesOf(await create({ [field]: value }));
      expect([field, occurrences.length]).toEqual([field, 3]);
      // The sample shows on the first occurrence: in a member plain series share, or in one a plain series' occurrences
      // each have their own (`website` falls back to the occurrence's own page) that is now the same for all.
      const sameInAll = (k: string) =>
        occurrences.every((o) => JSON.stringify(o[k]) === JSON.stringify(occurrences[0][k]));
      const shown = differing(control[0], occurrences[0]).filter(
        (k) => !perSeries.has(k) && !written.includes(k) && (!own.has(k) || sameInAll(k)),
      );
      const filter = SHOWN_BY_FILTER[field]?.(ids);
      if (filter) expect([field, await idsFiltered(filter)]).toEqual([field, occurrences.map((o) => o.id)]);
      else expect([field, shown.length > 0]).toEqual([field, true]);
      for (const later of occurrences.slice(1)) {
        const shared = differing(occurrences[0], later).filter((k) => !own.has(k) || shown.includes(k));
        expect([field, shared]).toEqual([field, []]);
      }
      // The second occurrence on starts a series of its own: it and the third keep the field.
      const res = await t.http
        .put(`${ns}/events/${occurrences[1].id as number}?scope=following`)
        .set('Authorization', admin.auth)
        .send({ excerpt: field === 'excerpt' ? 'Another excerpt' : 'Changed from here on' });
      expect([field, res.status]).toEqual([field, 200]);
      const after = await occurrencesOf(occurrences[0].id as number);
      for (const later of after.slice(2)) {
        expect([field, differing(after[1], later).filter((k) => !own.has(k))]).toEqual([field, []]);
      }
      if (filter) expect([field, await idsFiltered(filter)]).toEqual([field, after.map((o) => o.id)]);
      for (const member of shown.filter((k) => k !== 'excerpt')) {
        expect([field, member, after[2][member]]).toEqual([field, member, occurrences[0][member]]);
      }
      checked.push(field);
    }
    expect(checked).toEqual(Object.keys(samplesFor(ids)));
  });

  it("writes an occurrence edited on its own as an exception wherever its VEVENT differs from the series'", async () => {
    const feedText = async (path: string, query: Record<string, string> = {}) =>
      String(
        (await t.http.get(`${ns}/${path}`).query(query).set('Authorization', admin.auth).buffer(true).expect(200)).text,
      );
    const written: string[] = [];
    for (const [field, value] of Object.entries(samplesFor(ids))) {
      const [first, second] = await occurrencesOf(await create({}));
      const res = await t.http
        .put(`${ns}/events/${second.id as number}?scope=this`)
        .set('Authorization', admin.auth)
        .send({ [field]: value });
      expect([field, res.status]).toEqual([field, 200]);
      // The occurrence's own VEVENT, and the one of an occurrence left as the series is.
      const own = contentOf(veventsOf(await feedText(`events/${second.id as number}.ics`))[0]);
      const plain = contentOf(veventsOf(await feedText(`events/${first.id as number}.ics`))[0]);
      const feed = await feedText('events.ics', {
        series_id: String(first.series_id),
        status: 'publish,draft',
        start_date: '2031-01-01',
        end_date: '2031-12-31',
      });
      const exceptions = veventsOf(feed).filter((v) => v.some((line) => line.startsWith('RECURRENCE-ID')));
      if (JSON.stringify(own) === JSON.stringify(plain)) {
        expect([field, exceptions]).toEqual([field, []]);
      } else {
        expect([field, exceptions.map(contentOf)]).toEqual([field, [own]]);
        written.push(field);
      }
    }
    // Built-in properties, a link's (LOCATION) and a module's (X-CAL-CAPACITY) each made one. (The sample
    // organizer has no e-mail address, so ORGANIZER is not written and makes none.)
    expect(written).toEqual(expect.arrayContaining(['title', 'description', 'categories', 'venue', 'capacity']));
  });
});
