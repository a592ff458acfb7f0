import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpeakersModule } from '../../examples/speakers/speakers.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { captureStatements } from '../support/statements';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { describeLinkedPostType } from '../support/linked-post-type-suite';
import { createUser, type TestUser } from '../support/users';

/**
 * The worked example of docs/extending.md: a team's "speakers" module made of declarations only,
 * registered with `AppModule.forRoot({ modules })`. It must behave like venues and organizers, and events
 * must take, show, filter and blank its links without any change to the events module.
 */
const modules = [...CALENDAR_MODULES, SpeakersModule];

describeLinkedPostType({
  restBase: 'speakers',
  nameField: 'speaker',
  noun: 'speaker',
  linkTable: 'event_speakers',
  linkColumn: 'speaker_id',
  searchable: { affiliation: 'Springfield University' },
  modules,
});

describe('speakers: linked from events', () => {
  let t: TestApp;
  let editor: TestUser;
  const ns = '/cal/events/v1';

  beforeAll(async () => {
    t = await createTestApp({ modules });
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes speakers on event writes, in order, and shows them after the organizers', async () => {
    const grace = (
      await t.http
        .post(`${ns}/speakers`)
        .set('Authorization', editor.auth)
        .send({ speaker: 'Grace Hopper' })
        .expect(201)
    ).body;
    const event = await postEvent(t, editor.auth, {
      title: 'Compilers, then and now',
      speaker: [{ speaker: 'Ada Lovelace', affiliation: 'Analytical Engines Ltd' }, grace.id],
    });
    // A write answers the single read's representation: the links, then its schema.org description.
    expect(Object.keys(event).slice(-4)).toEqual(['venue', 'organizer', 'speaker', 'json_ld']);
    const speakers = event.speaker as { id: number; speaker: string; affiliation?: string }[];
    expect(speakers.map((s) => s.speaker)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(speakers[0].affiliation).toBe('Analytical Engines Ltd');

    const single = await t.http.get(`${ns}/events/${event.id}`).expect(200);
    expect(single.body.json_ld.performer).toEqual([
      { '@type': 'Person', name: 'Ada Lovelace', affiliation: 'Analytical Engines Ltd' },
      { '@type': 'Person', name: 'Grace Hopper' },
    ]);

    const filtered = await t.http
      .get(`${ns}/events`)
      .query({ speaker: grace.id, start_date: '2030-01-01', end_date: '2031-01-01' })
      .expect(200);
    expect(filtered.body.events.map((e: { id: number }) => e.id)).toEqual([event.id]);
    expect(filtered.body.rest_url).toContain(`speaker=${grace.id}`);
    const listed = await t.http.get(`${ns}/speakers`).query({ event: event.id }).expect(200);
    expect(listed.body.speakers.map((s: { speaker: string }) => s.speaker)).toEqual(['Ada Lovelace', 'Grace Hopper']);
  });

  it('reads venues, organizers and speakers of a page of events in one query, each with its own fields', async () => {
    const window = { start_date: '2032-05-01', end_date: '2032-05-31' };
    const first = await postEvent(t, editor.auth, {
      title: 'Three links, first',
      start_date: '2032-05-02 10:00',
      end_date: '2032-05-02 11:00',
      venue: { venue: 'Union Hall', city: 'Lyon' },
      organizer: [{ organizer: 'Union Society', email: 'union@example.org' }, { organizer: 'Union Choir' }],
      speaker: [{ speaker: 'Union Speaker', affiliation: 'Union Lab' }],
    });
    const second = await postEvent(t, editor.auth, {
      title: 'Three links, second',
      start_date: '2032-05-03 10:00',
      end_date: '2032-05-03 11:00',
      organizer: [{ organizer: 'Union Choir' }, { organizer: 'Union Society', email: 'union@example.org' }],
      speaker: [{ speaker: 'Second Speaker' }, { speaker: 'Union Speaker', affiliation: 'Union Lab' }],
    });
    let page: { events: Record<string, unknown>[] } = { events: [] };
    const statements = await captureStatements(t, async () => {
      page = (await t.http.get(`${ns}/events`).query(window).expect(200)).body as typeof page;
    });
    expect(statements.filter((sql) => /\bUNION ALL\b/.test(sql) && /event_venues/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /event_organizers|event_speakers/.test(sql))).toHaveLength(1);
    const [a, b] = page.events;
    expect([a.id, b.id]).toEqual([first.id, second.id]);
    expect(a.venue).toEqual(expect.objectContaining({ venue: 'Union Hall', city: 'Lyon' }));
    expect((a.organizer as { organizer: string; email?: string }[]).map((o) => [o.organizer, o.email])).toEqual([
      ['Union Society', 'union@example.org'],
      ['Union Choir', undefined],
    ]);
    expect((a.speaker as { speaker: string; affiliation?: string }[]).map((s) => [s.speaker, s.affiliation])).toEqual([
      ['Union Speaker', 'Union Lab'],
    ]);
    expect(b.venue).toEqual([]);
    expect((b.organizer as { organizer: string }[]).map((o) => o.organizer)).toEqual(['Union Choir', 'Union Society']);
    expect((b.speaker as { speaker: string }[]).map((s) => s.speaker)).toEqual(['Second Speaker', 'Union Speaker']);
  });

  it('refuses unknown speakers and bad inline ones, and blanks them on protected events', async () => {
    const unknown = await t.http.get(`${ns}/events`).query({ speaker: 99_999_999 }).expect(400);
    expect(Object.keys(unknown.body.data.params)).toEqual(['speaker']);
    const bad = await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({
        title: 'Bad talk',
        start_date: '2030-05-01',
        end_date: '2030-05-01',
        speaker: [{ speaker: 'X', website: 'nope' }],
      })
      .expect(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['speaker.website']);
    const secret = await postEvent(t, editor.auth, {
      title: 'Closed session',
      password: 'pw',
      speaker: [{ speaker: 'Hidden' }],
    });
    const anonymous = await t.http.get(`${ns}/events`).query({ include: secret.id }).expect(200);
    expect(anonymous.body.events[0].speaker).toEqual([]);
  });

  it('documents the speaker routes and the event field in the OpenAPI document and the route index', async () => {
    const doc = (await t.http.get(`${ns}/doc`).expect(200)).body;
    expect(doc.paths[`${ns}/speakers/{id}`].get.summary).toBe('Read a speaker.');
    const index = (await t.http.get(ns).expect(200)).body;
    const create = index.routes[`${ns}/events`].endpoints.find((e: { methods: string[] }) =>
      e.methods.includes('POST'),
    );
    expect(create.args.speaker).toMatchObject({ required: false });
  });
});
