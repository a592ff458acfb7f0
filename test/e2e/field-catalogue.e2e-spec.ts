import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, EXAMPLE_EXTENSIONS, registeredModules, type TestApp } from '../support/create-test-app';
import { cliWith } from '../support/run-cli';
import { createUser, type TestUser } from '../support/users';

type Json = Record<string, unknown>;
const ns = '/cal/events/v1';
const TEC = '/wp-json/tribe/events/v1';

/**
 * Every write field of `POST /events`, the registered modules' included: a value that differs from what an
 * event gets without it, and what each path makes of it. A field the OpenAPI document declares and this table
 * does not know fails the test: a new field is walked through every path before it ships.
 * - `member`: the member of the event object that shows it (none: no member shows it);
 * - `clear`: what `null` does (`clears`: back to the event without it; `refused`: a 400 naming the field);
 * - `ical`: the iCalendar property a feed writes it as (none: a feed leaves it out);
 * - `jsonLd`: the json_ld property that carries it;
 * - `tec`: whether import:tec carries it from another instance's TEC alias;
 * - `icalImport`: whether import:ical reads it back from this service's feed.
 */
interface FieldPaths {
  sample: (ids: Record<string, number>) => unknown;
  member?: string;
  clear: 'clears' | 'refused';
  /** What the member shows once cleared, when not what an event without the field shows. */
  cleared?: (event: Json) => unknown;
  ical?: string;
  jsonLd?: string;
  tec: boolean;
  icalImport: boolean;
}

const FIELDS: Record<string, FieldPaths> = {
  title: {
    sample: () => 'Catalogue title',
    member: 'title',
    clear: 'refused',
    ical: 'SUMMARY',
    jsonLd: 'name',
    tec: true,
    icalImport: true,
  },
  description: {
    sample: () => '<p>Shared words</p>',
    member: 'description',
    clear: 'clears',
    ical: 'DESCRIPTION',
    jsonLd: 'description',
    tec: true,
    icalImport: true,
  },
  excerpt: { sample: () => 'A short one', member: 'excerpt', clear: 'clears', tec: true, icalImport: false },
  slug: { sample: () => 'my-own-slug', member: 'slug', clear: 'clears', tec: true, icalImport: false },
  status: { sample: () => 'draft', member: 'status', clear: 'refused', ical: 'STATUS', tec: true, icalImport: false },
  date: { sample: () => '2030-01-02 03:04:05', member: 'date', clear: 'refused', tec: false, icalImport: false },
  date_utc: {
    sample: () => '2030-01-02 03:04:05',
    member: 'date_utc',
    clear: 'refused',
    ical: 'CREATED',
    tec: true,
    icalImport: false,
  },
  author: { sample: (ids) => ids.editor, member: 'author', clear: 'refused', tec: false, icalImport: false },
  image: {
    sample: () => 'https://cdn.example.org/poster.webp',
    member: 'image',
    clear: 'clears',
    jsonLd: 'image',
    tec: true,
    icalImport: false,
  },
  timezone: {
    sample: () => 'America/New_York',
    member: 'timezone',
    clear: 'refused',
    ical: 'TZID',
    tec: true,
    icalImport: true,
  },
  all_day: {
    sample: () => true,
    member: 'all_day',
    clear: 'refused',
    ical: 'DTSTART;VALUE=DATE',
    tec: true,
    icalImport: true,
  },
  start_date: {
    sample: () => '2031-03-03 08:00:00',
    member: 'start_date',
    clear: 'refused',
    ical: 'DTSTART',
    jsonLd: 'startDate',
    tec: true,
    icalImport: true,
  },
  end_date: {
    sample: () => '2031-03-04 18:00:00',
    member: 'end_date',
    clear: 'refused',
    ical: 'DTEND',
    jsonLd: 'endDate',
    tec: true,
    icalImport: true,
  },
  cost: { sample: () => '15 - 20', member: 'cost', clear: 'clears', jsonLd: 'offers', tec: true, icalImport: false },
  website: {
    sample: () => 'https://catalogue.example.org/',
    member: 'website',
    clear: 'clears',
    // Without a website of its own, an event shows its own page (behaviour.md §5).
    cleared: (event) => event.url,
    tec: true,
    icalImport: false,
  },
  show_map: { sample: () => false, member: 'show_map', clear: 'refused', tec: true, icalImport: false },
  show_map_link: { sample: () => false, member: 'show_map_link', clear: 'refused', tec: true, icalImport: false },
  // TEC's lists leave out events hidden from listings, so import:tec never sees them (issue 49).
  hide_from_listings: {
    sample: () => true,
    member: 'hide_from_listings',
    clear: 'refused',
    tec: false,
    icalImport: false,
  },
  sticky: { sample: () => true, member: 'sticky', clear: 'refused', tec: true, icalImport: false },
  featured: { sample: () => true, member: 'featured', clear: 'refused', tec: true, icalImport: false },
  categories: {
    sample: () => ['Catalogue'],
    member: 'categories',
    clear: 'clears',
    ical: 'CATEGORIES',
    tec: true,
    icalImport: true,
  },
  tags: { sample: () => ['catalogued'], member: 'tags', clear: 'clears', tec: true, icalImport: false },
  password: { sample: () => 'secret', member: 'password_protected', clear: 'clears', tec: false, icalImport: false },
  post_parent: { sample: (ids) => ids.parent, clear: 'refused', tec: false, icalImport: false },
  // import:ical keeps the rule as written (X-CAL-RECURRENCE), COUNT and all.
  recurrence: {
    sample: () => ['RRULE:FREQ=DAILY;COUNT=2'],
    member: 'recurrence',
    clear: 'clears',
    ical: 'RRULE',
    tec: false,
    icalImport: true,
  },
  venue: {
    sample: (ids) => ids.venue,
    member: 'venue',
    clear: 'clears',
    ical: 'LOCATION',
    jsonLd: 'location',
    tec: true,
    icalImport: true,
  },
  organizer: {
    sample: (ids) => [ids.organizer],
    member: 'organizer',
    clear: 'clears',
    ical: 'ORGANIZER',
    jsonLd: 'organizer',
    tec: true,
    icalImport: true,
  },
  // The shipped extensions' (registeredModules): a linked type, a taxonomy and a stored field.
  speaker: { sample: (ids) => [ids.speaker], member: 'speaker', clear: 'clears', tec: true, icalImport: false },
  audiences: { sample: () => ['Grown-ups'], member: 'audiences', clear: 'clears', tec: true, icalImport: false },
  capacity: {
    sample: () => 120,
    member: 'capacity',
    clear: 'clears',
    ical: 'X-CAL-CAPACITY',
    jsonLd: 'maximumAttendeeCapacity',
    tec: true,
    icalImport: true,
  },
};

/** The same event read on two sides: what a field's value looks like wherever it lives. */
function comparable(name: string, value: unknown): unknown {
  const named = (item: unknown) => {
    const record = item as Json;
    return record.name ?? record.venue ?? record.organizer ?? record.speaker ?? record.url;
  };
  if (Array.isArray(value)) return value.map(named);
  if (value && typeof value === 'object') return named(value);
  return name === 'image' && value === false ? false : value;
}

/**
 * The catalogue of event fields, walked field by field: every write field of `POST /events`, built-in or from
 * `examples/`, through the write and the read, `null`, the TEC alias, the OpenAPI component, json_ld, the
 * iCalendar feed, and both imports' round trips. (The series and the list parameters are walked by
 * series-fields and fast-paths.)
 */
describe('every declared event field, through every path', () => {
  let t: TestApp;
  let admin: TestUser;
  const ids: Record<string, number> = {};
  /** Each field's event: made with only that field set (and the base below). */
  const eventOf: Record<string, number> = {};
  let baseline: Json;
  const dir = mkdtempSync(join(tmpdir(), 'cal-catalogue-'));

  const BASE = { title: 'Catalogue', start_date: '2031-03-03 10:00:00', end_date: '2031-03-03 12:00:00' };
  const read = async (id: number, path = `${ns}/events/${id}`): Promise<Json> =>
    (await t.http.get(path).set('Authorization', admin.auth).expect(200)).body as Json;

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' }, modules: await registeredModules() });
    admin = await createUser(t, 'administrator');
    ids.editor = (await createUser(t, 'editor')).id;
    const post = async (path: string, body: Json) =>
      ((await t.http.post(`${ns}/${path}`).set('Authorization', admin.auth).send(body).expect(201)).body as Json)
        .id as number;
    ids.venue = await post('venues', { venue: 'Catalogue Hall', city: 'Leipzig' });
    ids.organizer = await post('organizers', { organizer: 'Catalogue Crew', email: 'crew@example.org' });
    ids.speaker = await post('speakers', { speaker: 'Catalogue Speaker' });
    ids.parent = await post('events', { ...BASE, title: 'Parent' });
    baseline = await read(await post('events', BASE));
    ids.ticketed = await post('events', { ...BASE, title: 'Catalogue tickets' });
    await post(`events/${ids.ticketed}/tickets`, {
      name: 'Early',
      price: '9€',
      capacity: 40,
      sale_end: '2031-03-01 00:00:00',
    });
    await post(`events/${ids.ticketed}/tickets`, { name: 'Door', price: '12€' });
    for (const [name, paths] of Object.entries(FIELDS)) {
      eventOf[name] = await post('events', { ...BASE, title: `Catalogue ${name}`, [name]: paths.sample(ids) });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('knows every write field the OpenAPI document declares, and each member it names is in the Event component', async () => {
    const doc = (await t.http.get(`${ns}/doc`).expect(200)).body as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref?: string } }> } } }>;
      components: { schemas: Record<string, { properties: Json }> };
    };
    const body = Object.values(doc.paths[`${ns}/events`].post.requestBody.content)[0].schema;
    const request = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()!] : (body as { properties: Json });
    expect(Object.keys(request.properties).sort()).toEqual(Object.keys(FIELDS).sort());
    const members = Object.keys(doc.components.schemas.Event.properties);
    const named = Object.values(FIELDS).flatMap((f) => (f.member ? [f.member] : []));
    expect(named.filter((m) => !members.includes(m))).toEqual([]);
  });

  it('shows each field in its member, natively and through the TEC alias alike', async () => {
    for (const [name, paths] of Object.entries(FIELDS)) {
      if (!paths.member || name === 'title') continue;
      const event = await read(eventOf[name]);
      expect({ name, differs: event[paths.member] }).not.toEqual({ name, differs: baseline[paths.member] });
      const alias = await read(eventOf[name], `${TEC}/events/${eventOf[name]}`);
      // (The alias names terms by TEC's taxonomies and links to its own routes: compared by what they name.)
      expect({ name, alias: comparable(name, alias[paths.member]) }).toEqual({
        name,
        alias: comparable(name, event[paths.member]),
      });
    }
    // A field no member shows: the list filter that finds it.
    const children = await t.http
      .get(`${ns}/events`)
      .query({
        post_parent: ids.parent,
        start_date: '2031-01-01',
        end_date: '2031-12-31',
        status: 'publish,draft,future',
      })
      .set('Authorization', admin.auth)
      .expect(200);
    expect(children.body.events.map((e: Json) => e.id)).toEqual([eventOf.post_parent]);
  });

  it('carries each field its declaration names into json_ld', async () => {
    for (const [name, paths] of Object.entries(FIELDS)) {
      if (!paths.jsonLd) continue;
      const [withIt, without] = [await read(eventOf[name]), await read(eventOf.excerpt)];
      const ld = (e: Json) => (e.json_ld as Json)[paths.jsonLd!];
      expect({ name, present: ld(withIt) !== undefined }).toEqual({ name, present: true });
      if (!['name', 'startDate', 'endDate'].includes(paths.jsonLd))
        expect({ name, without: ld(without) }).toEqual({ name, without: undefined });
    }
  });

  it("clears with null what null clears, and refuses it where the field can't be empty", async () => {
    for (const [name, paths] of Object.entries(FIELDS)) {
      const res = await t.http
        .put(`${ns}/events/${eventOf[name]}`)
        .set('Authorization', admin.auth)
        .send({ [name]: null });
      if (paths.clear === 'refused') {
        expect({ name, status: res.status, params: res.body.data?.params }).toMatchObject({ name, status: 400 });
        continue;
      }
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      // An empty slug is made from the title again.
      if (name === 'slug') expect(res.body.slug).toBe('catalogue-slug');
      else if (paths.member)
        expect({ name, value: res.body[paths.member] }).toEqual({
          name,
          value: paths.cleared ? paths.cleared(res.body as Json) : baseline[paths.member],
        });
      // Back as it was, for the paths below.
      await t.http
        .put(`${ns}/events/${eventOf[name]}`)
        .set('Authorization', admin.auth)
        .send({ [name]: paths.sample(ids) })
        .expect(200);
    }
  });

  it('writes each field its declaration names into the iCalendar feed', async () => {
    for (const [name, paths] of Object.entries(FIELDS)) {
      if (!paths.ical) continue;
      if (name === 'status' || name === 'hide_from_listings') continue; // a draft is in no public feed
      // The list's feed, which writes a series whole (with its RRULE), an occurrence's own feed does not.
      const feed = await t.http
        .get(`${ns}/events.ics`)
        .query({ include: eventOf[name] })
        .set('Authorization', admin.auth)
        .expect(200);
      const vevent = feed.text.slice(feed.text.indexOf('BEGIN:VEVENT'));
      const lines = vevent.split('\r\n');
      const named = (l: string) => l.startsWith(paths.ical!) || l.includes(`;${paths.ical!}=`);
      expect({ name, property: lines.some(named) }).toEqual({
        name,
        property: true,
      });
    }
  });

  /**
   * Runs an import CLI command into a second, empty instance that loads the same modules, and compares, for
   * each field `carries` picks, the member of the event there (by title) with the event here (read at `here`).
   */
  async function expectCarried(
    command: string[],
    list: { path: string; query: Record<string, string | number> },
    carries: (paths: FieldPaths) => boolean,
    here: (id: number) => string,
    also?: (second: TestApp, auth: string, byTitle: Map<string, Json>) => Promise<void>,
  ): Promise<void> {
    const second = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' }, modules: await registeredModules() });
    try {
      const secondAdmin = await createUser(second, 'administrator');
      const env = { DATABASE_URL: second.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'UTC' };
      const run = await cliWith({ ...env, CAL_EXTENSIONS: EXAMPLE_EXTENSIONS }, ...command, '--json');
      expect(JSON.parse(run.stdout)).toMatchObject({ failed: [] });
      const there = await second.http
        .get(list.path)
        .query(list.query)
        .set('Authorization', secondAdmin.auth)
        .expect(200);
      const byTitle = new Map((there.body.events as Json[]).map((e) => [String(e.title), e]));
      for (const [name, paths] of Object.entries(FIELDS)) {
        if (!carries(paths) || !paths.member) continue;
        const event = await read(eventOf[name], here(eventOf[name]));
        const imported = byTitle.get(String(event.title)) ?? {};
        expect({ name, carried: comparable(name, imported[paths.member]) }).toEqual({
          name,
          carried: comparable(name, event[paths.member]),
        });
      }
      await also?.(second, secondAdmin.auth, byTitle);
    } finally {
      await second.close();
    }
  }

  it('carries each field import:tec carries from another instance through its TEC alias', async () => {
    await t.app.listen(0, '127.0.0.1');
    const alias = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    await expectCarried(
      ['import:tec', `${alias}${TEC}`, '--user', admin.login, '--password', admin.password],
      {
        path: `${TEC}/events`,
        query: { start_date: '2000-01-01', end_date: '2100-12-31', per_page: 100, status: 'publish,draft,future' },
      },
      (paths) => paths.tec,
      (id) => `${TEC}/events/${id}`,
      async (second, auth, byTitle) => {
        // Every example module's own records, field by field: the child resource's tickets of an event, the
        // linked type's speakers, the taxonomy's audiences.
        const there = (path: string) => second.http.get(`${ns}/${path}`).set('Authorization', auth).expect(200);
        const ticketed = byTitle.get('Catalogue tickets');
        const ticketFields = (list: Json[]) => list.map((t) => [t.name, t.price, t.capacity, t.sale_start, t.sale_end]);
        expect(ticketFields((await there(`events/${Number(ticketed?.id)}/tickets`)).body.tickets as Json[])).toEqual(
          ticketFields((await read(ids.ticketed, `${ns}/events/${ids.ticketed}/tickets`)).tickets as Json[]),
        );
        for (const [path, fields] of [
          ['speakers', ['speaker', 'affiliation', 'website', 'status']],
          ['audiences', ['name', 'slug', 'description']],
        ] as const) {
          const pick = (list: Json[]) =>
            list.map((r) => fields.map((f) => r[f])).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
          const mine = (await t.http.get(`${ns}/${path}?per_page=100`).set('Authorization', admin.auth)).body as Json;
          const theirs = (await there(`${path}?per_page=100`)).body as Json;
          expect({ path, records: pick(theirs[path] as Json[]) }).toEqual({
            path,
            records: pick(mine[path] as Json[]),
          });
        }
      },
    );
  });

  it("carries each field import:ical reads back from this service's feed", async () => {
    const feed = await t.http
      .get(`${ns}/events.ics`)
      .query({ start_date: '2031-01-01', end_date: '2031-12-31' })
      .set('Authorization', admin.auth)
      .expect(200);
    const file = join(dir, 'feed.ics');
    writeFileSync(file, feed.text);
    await expectCarried(
      ['import:ical', file],
      { path: `${ns}/events`, query: { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 100 } },
      (paths) => paths.icalImport,
      (id) => `${ns}/events/${id}`,
    );
  });

  it('hides from a filter what a password hides from the caller: no module filter tells a protected value', async () => {
    const body = { ...BASE, title: 'Protected capacity', password: 'secret', capacity: 900 };
    const id = (
      (await t.http.post(`${ns}/events`).set('Authorization', admin.auth).send(body).expect(201)).body as Json
    ).id as number;
    const list = (auth?: string) => {
      const req = t.http
        .get(`${ns}/events`)
        .query({ start_date: '2031-01-01', end_date: '2031-12-31', min_capacity: 800 });
      return auth ? req.set('Authorization', auth) : req;
    };
    expect(((await list()).body.events as Json[]).map((e) => e.id)).toEqual([]);
    expect(((await list(admin.auth)).body.events as Json[]).map((e) => e.id)).toEqual([id]);
    // Listed to the public, blanked: its capacity as an event without one.
    const listed = (await t.http.get(`${ns}/events`).query({ include: id }).expect(200)).body.events as Json[];
    expect(listed.map((e) => [e.id, e.capacity])).toEqual([[id, null]]);
  });
});
