import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { declaredListSamples } from '../support/declared-samples';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const WINDOW = 'start_date=2031-04-01&end_date=2031-04-30&per_page=50';

/**
 * Secure by default: every filter `GET /events` declares, the calendar's and every extension's, run against
 * protected, draft and private events as anonymous, contributor and editor callers. A caller who may not see an
 * event's hidden members cannot tell from any filter's answer (its page or its total) whether they match: a
 * protected event with every member set and its bare twin come back together or not at all, and drafts and
 * private events of others never come back.
 */
describe('every declared filter keeps hidden events hidden', () => {
  let t: TestApp;
  let editor: TestUser;
  let contributor: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ modules: await registeredModules(), env: { RESPONSE_CACHE_MB: '0' } });
    editor = await createUser(t, 'editor');
    contributor = await createUser(t, 'contributor');
    const post = async (path: string, body: object) =>
      (
        (await t.http.post(`${ns}/${path}`).set('Authorization', editor.auth).send(body).expect(201)).body as {
          id: number;
        }
      ).id;
    const category = await post('categories', { name: 'Secret' });
    const tag = await post('tags', { name: 'Hush' });
    const venue = await post('venues', { venue: 'Vault', city: 'Berlin', geo_lat: 52.5, geo_lng: 13.4 });
    const organizer = await post('organizers', { organizer: 'Cabal' });
    const speaker = await post('speakers', { speaker: 'Whisper' });
    const times = { start_date: '2031-04-10 19:00:00', end_date: '2031-04-10 21:00:00' };
    ids.open = (await postEvent(t, editor.auth, { title: 'Open', ...times })).id;
    const rich = {
      ...times,
      description: 'zebra crossing',
      excerpt: 'zebra',
      categories: [category],
      tags: [tag],
      venue,
      organizer: [organizer],
      speaker: [speaker],
      audiences: ['Kids'],
      capacity: 500,
      featured: true,
      sticky: true,
      post_parent: ids.open,
    };
    const make = async (name: string, auth: string, fields: object) => {
      ids[name] = (await postEvent(t, auth, { title: 'Twin', ...fields })).id;
      if ('capacity' in fields) {
        await t.http
          .post(`${ns}/events/${ids[name]}/tickets`)
          .set('Authorization', editor.auth)
          .send({ name: 'Entry' })
          .expect(201);
      }
    };
    await make('openRich', editor.auth, rich);
    await make('protectedRich', editor.auth, { ...rich, password: 'sesame' });
    await make('protectedBare', editor.auth, { ...times, password: 'sesame' });
    await make('draft', editor.auth, { ...rich, status: 'draft' });
    await make('private', editor.auth, { ...rich, status: 'private' });
    await make('contributorDraft', contributor.auth, { ...times, status: 'draft' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never tells a caller which of the events they may not see in full match a filter', async () => {
    const samples = await declaredListSamples(t, editor.auth, { search: ['zebra', 'twin'] });
    const callers = [
      { who: 'anonymous', auth: undefined, hidden: ['draft', 'private', 'contributorDraft'], twins: true },
      { who: 'contributor', auth: contributor.auth, hidden: ['draft', 'private'], twins: true },
      { who: 'editor', auth: editor.auth, hidden: [], twins: false },
    ];
    const problems: string[] = [];
    let answered = 0;
    let richMatched = 0;
    for (const [name, values] of samples) {
      if (name === 'page' || name === 'per_page' || name.endsWith('_date') || name.includes('before')) continue;
      for (const value of values) {
        const params = new URLSearchParams(WINDOW);
        params.set(name, value);
        for (const { who, auth, hidden, twins } of callers) {
          const req = t.http.get(`${ns}/events?${params.toString()}`);
          const res = await (auth ? req.set('Authorization', auth) : req);
          const query = `${params.toString()} as ${who}`;
          if (res.status >= 500) problems.push(`${query}: ${res.status}`);
          if (res.status !== 200) continue;
          answered++;
          const found = (res.body as { events: { id: number }[] }).events.map((e) => e.id);
          // The total counts what the page shows: nothing hidden is counted.
          const total = Number(res.headers['x-wp-total']);
          if (total !== found.length) problems.push(`${query}: total ${total}, listed ${found.length}`);
          const leaked = hidden.filter((h) => found.includes(ids[h]));
          if (leaked.length > 0) problems.push(`${query}: lists ${leaked.join(', ')}`);
          const rich = found.includes(ids.protectedRich);
          if (twins && rich !== found.includes(ids.protectedBare))
            problems.push(`${query}: tells the protected twins apart (${rich ? 'the rich one' : 'the bare one'})`);
          if (who === 'editor' && found.includes(ids.protectedRich) && !found.includes(ids.protectedBare))
            richMatched++;
        }
      }
    }
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(60);
    // The editor, who sees the members, is told: the sweep did reach filters that only the rich twin matches.
    expect(richMatched).toBeGreaterThan(8);
  });
});
