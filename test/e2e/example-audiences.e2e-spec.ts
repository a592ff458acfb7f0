import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AudiencesModule } from '../../examples/audiences/audiences.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { captureStatements, documentsSettled, storedBody } from '../support/statements';
import { describeTaxonomyRoutes } from '../support/taxonomy-suite';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const modules = [...CALENDAR_MODULES, AudiencesModule];

/**
 * The worked example of docs/extending.md's taxonomy: one declaration gives the routes categories and tags
 * have (the same suite runs on it), and events carry, show, take and filter its terms.
 */
describeTaxonomyRoutes({ restBase: 'audiences', taxonomy: 'cal_audience', hierarchical: false, modules });

describe('audiences: a taxonomy on events from a module', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ modules });
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes audiences on event writes by id or name, shows them by name, and counts them', async () => {
    const kids = (
      await t.http.post(`${ns}/audiences`).set('Authorization', editor.auth).send({ name: 'Kids' }).expect(201)
    ).body as { id: number };
    const event = await postEvent(t, editor.auth, { title: 'Puppets', audiences: [kids.id, 'Families'] });
    expect((event.audiences as { name: string }[]).map((a) => a.name)).toEqual(['Families', 'Kids']);
    expect((event.categories as unknown[]).length).toBe(0);
    const term = await t.http.get(`${ns}/audiences/${kids.id}`).expect(200);
    expect(term.body).toMatchObject({ taxonomy: 'cal_audience', count: 1 });
    const updated = await t.http
      .patch(`${ns}/events/${event.id}`)
      .set('Authorization', editor.auth)
      .send({ audiences: [] })
      .expect(200);
    expect(updated.body.audiences).toEqual([]);
    expect((await t.http.get(`${ns}/audiences/${kids.id}`).expect(200)).body.count).toBe(0);
    await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ title: 'x', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', audiences: [999999] })
      .expect(400);
  });

  it('filters events by audiences= for every caller, with exact totals; an unknown one is a 400', async () => {
    const window = 'start_date=2031-04-01&end_date=2031-04-30';
    const at = (day: string) => ({ start_date: `2031-04-${day} 10:00`, end_date: `2031-04-${day} 11:00` });
    await postEvent(t, editor.auth, { title: 'For seniors', audiences: ['Seniors'], ...at('02') });
    await postEvent(t, editor.auth, { title: 'For all', audiences: ['Seniors', 'Students'], ...at('03') });
    await postEvent(t, editor.auth, {
      title: 'Draft for seniors',
      status: 'draft',
      audiences: ['Seniors'],
      ...at('04'),
    });
    await postEvent(t, editor.auth, { title: 'Untargeted', ...at('05') });
    const titles = async (query: string, auth?: string) => {
      const req = t.http.get(`${ns}/events?${window}&${query}`);
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      return [res.headers['x-wp-total'], (res.body.events as { title: string }[]).map((e) => e.title)];
    };
    expect(await titles('audiences=seniors')).toEqual(['2', ['For seniors', 'For all']]);
    expect(await titles('audiences=students,seniors&per_page=1&page=2')).toEqual(['2', ['For all']]);
    expect(await titles('audiences=seniors&status=publish,draft', editor.auth)).toEqual([
      '3',
      ['For seniors', 'For all', 'Draft for seniors'],
    ]);
    const bad = await t.http.get(`${ns}/events?audiences=nobody`).expect(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['audiences']);
    // The list's links carry the filter.
    const page = await t.http.get(`${ns}/events?${window}&audiences=seniors&per_page=1`).expect(200);
    expect(page.body.next_rest_url).toContain('audiences=seniors');
    // One audience is one term, as one category is: the public's total comes from the per-term day counts.
    const statements = await captureStatements(t, () =>
      t.http.get(`${ns}/events?${window}&audiences=seniors&per_page=1&page=2`).expect(200),
    );
    expect(statements.some((sql) => sql.includes('event_term_listing_days'))).toBe(true);
    expect(statements.filter((sql) => /SELECT COUNT\(/i.test(sql))).toEqual([]);
  });

  it('serves stored documents with the audiences and their live counts', async () => {
    const event = await postEvent(t, editor.auth, { title: 'Documented', audiences: ['Parents'] });
    await t.http.get(`${ns}/events/${event.id}`).expect(200);
    await documentsSettled(t);
    const row = (await storedBody(t, event.id))!;
    // Stored (not refused as "not the same for every caller"), the term's count a placeholder.
    expect(row.body).toContain('"audiences":[{');
    await postEvent(t, editor.auth, { title: 'Also for parents', audiences: ['Parents'] });
    const read = await t.http.get(`${ns}/events/${event.id}`).expect(200);
    expect(read.body.audiences[0]).toMatchObject({ name: 'Parents', count: 2 });
  });
});
